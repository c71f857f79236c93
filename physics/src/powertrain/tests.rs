//! Whole-powertrain tests: closed forms through the coupled step.
