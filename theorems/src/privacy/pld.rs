//! PLD
