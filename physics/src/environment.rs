//! [`Environment`]: the weather the car drives in, as far as the physics needs it.

use serde::{Deserialize, Serialize};

use crate::validate::{Validate, Validator};

/// Air and track temperatures (°C): what the tyres exchange heat with, and the temperature
/// at which cold tyre pressures are set.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Environment {
    /// Air temperature (°C). Default 20 °C.
    pub ambient_temp_c: f64,
    /// Track surface temperature (°C). Default 25 °C: asphalt a little above the air on a
    /// mild, partly sunny day.
    pub track_temp_c: f64,
}

impl Default for Environment {
    fn default() -> Self {
        Self {
            ambient_temp_c: 20.0,
            track_temp_c: 25.0,
        }
    }
}

impl Validate for Environment {
    fn validate(&self, v: &mut Validator) {
        v.in_range("ambient_temp_c", self.ambient_temp_c, -60.0, 60.0);
        v.in_range("track_temp_c", self.track_temp_c, -60.0, 90.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_extremes_are_refused() {
        Environment::default().check().expect("valid");
        let err = Environment {
            ambient_temp_c: f64::NAN,
            track_temp_c: 150.0,
        }
        .check()
        .expect_err("invalid");
        let paths: Vec<&str> = err.0.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(paths, ["ambient_temp_c", "track_temp_c"]);
    }
}
