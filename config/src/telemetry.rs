//! Telemetry out: where OutGauge, OutSim and Gripline's own stream go, how often, and with
//! which options.

use gripline_physics::validate::{Validate, Validator};
use serde::{Deserialize, Serialize};

use crate::sanitize::{Sanitize, Sanitizer};

/// Packet rates accepted (Hz).
pub const RATE_RANGE_HZ: (f64, f64) = (1.0, 1000.0);

/// Telemetry-out settings (off by default: no destination).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TelemetrySettings {
    /// OutGauge destination `HOST:PORT`; `None`: not sent.
    pub outgauge: Option<String>,
    /// OutGauge packets per second.
    pub outgauge_rate_hz: f64,
    /// OutSim destination `HOST:PORT`; `None`: not sent.
    pub outsim: Option<String>,
    /// OutSim packets per second.
    pub outsim_rate_hz: f64,
    /// OutSim `Opts` bits (0 to 0xff).
    pub outsim_opts: u32,
    /// The optional packet ID.
    pub id: Option<i32>,
    /// Gripline's own stream (every physics figure, per wheel): destination `HOST:PORT`;
    /// `None`: not sent.
    pub stream: Option<String>,
    /// Gripline stream packets per second (up to the physics rate).
    pub stream_rate_hz: f64,
}

impl Default for TelemetrySettings {
    /// Nothing sent; OutGauge at 60 Hz and OutSim at 100 Hz with the classic packet once a
    /// destination is set.
    fn default() -> Self {
        Self {
            outgauge: None,
            outgauge_rate_hz: 60.0,
            outsim: None,
            outsim_rate_hz: 100.0,
            outsim_opts: 0,
            id: None,
            stream: None,
            stream_rate_hz: 100.0,
        }
    }
}

impl Validate for TelemetrySettings {
    fn validate(&self, v: &mut Validator) {
        v.in_range(
            "outgauge_rate_hz",
            self.outgauge_rate_hz,
            RATE_RANGE_HZ.0,
            RATE_RANGE_HZ.1,
        );
        v.in_range(
            "outsim_rate_hz",
            self.outsim_rate_hz,
            RATE_RANGE_HZ.0,
            RATE_RANGE_HZ.1,
        );
        v.in_range(
            "stream_rate_hz",
            self.stream_rate_hz,
            RATE_RANGE_HZ.0,
            RATE_RANGE_HZ.1,
        );
        v.require(self.outsim_opts <= 0xff, "outsim_opts", "must be 0 to ff");
        for (field, destination) in [
            ("outgauge", &self.outgauge),
            ("outsim", &self.outsim),
            ("stream", &self.stream),
        ] {
            if let Some(d) = destination {
                v.require(!d.trim().is_empty(), field, "must be HOST:PORT");
            }
        }
    }
}

impl Sanitize for TelemetrySettings {
    fn sanitize(&mut self, s: &mut Sanitizer) {
        let d = Self::default();
        s.range(
            "outgauge_rate_hz",
            &mut self.outgauge_rate_hz,
            RATE_RANGE_HZ.0,
            RATE_RANGE_HZ.1,
            d.outgauge_rate_hz,
        );
        s.range(
            "outsim_rate_hz",
            &mut self.outsim_rate_hz,
            RATE_RANGE_HZ.0,
            RATE_RANGE_HZ.1,
            d.outsim_rate_hz,
        );
        s.range(
            "stream_rate_hz",
            &mut self.stream_rate_hz,
            RATE_RANGE_HZ.0,
            RATE_RANGE_HZ.1,
            d.stream_rate_hz,
        );
        if self.outsim_opts > 0xff {
            s.changed(
                "outsim_opts",
                format!("{:#x} has bits beyond ff; kept the low 8", self.outsim_opts),
            );
            self.outsim_opts &= 0xff;
        }
        for (field, destination) in [
            ("outgauge", &mut self.outgauge),
            ("outsim", &mut self.outsim),
            ("stream", &mut self.stream),
        ] {
            if destination.as_deref().is_some_and(|t| t.trim().is_empty()) {
                s.changed(field, "an empty destination; not sent");
                *destination = None;
            }
        }
        s.ensure_valid("", self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_send_nothing_and_bad_values_are_repaired() {
        let d = TelemetrySettings::default();
        assert!(d.check().is_ok() && d.outgauge.is_none() && d.outsim.is_none());
        let mut t = TelemetrySettings {
            outgauge: Some(" ".into()),
            outgauge_rate_hz: 5000.0,
            outsim_rate_hz: f64::NAN,
            outsim_opts: 0x1ff,
            ..TelemetrySettings::default()
        };
        assert_eq!(t.sanitize_all().len(), 4);
        assert!(t.outgauge.is_none());
        assert!((t.outgauge_rate_hz - 1000.0).abs() < 1e-12);
        assert!((t.outsim_rate_hz - 100.0).abs() < 1e-12);
        assert_eq!(t.outsim_opts, 0xff);
        assert!(t.check().is_ok());
    }
}
