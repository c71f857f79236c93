//! The voices: each turns part of a [`crate::SoundFrame`] into a mono signal.
//!
//! | voice | what it makes |
//! |---|---|
//! | [`engine`] | combustion pulses at the firing frequency through an exhaust and an intake; limiter, starter, stall |
//! | [`drivetrain`] | gear whine, clutch slip, H-pattern grind, shift clunks |
//! | [`tyres`] | squeal by slip over peak slip, lock-up howl, surface noise, kerb rumble, thumps |
//! | [`wind`] | wind noise rising with speed |
//! | [`impacts`] | body impacts and scraping |

pub mod drivetrain;
pub mod engine;
pub mod impacts;
pub mod tyres;
pub mod wind;
