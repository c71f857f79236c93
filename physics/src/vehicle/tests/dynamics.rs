//! Driving.
