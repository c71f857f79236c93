//! Telemetry out as the settings describe it: the destinations resolved into the sender's
//! targets.

use gripline_config::TelemetrySettings;
use gripline_sim::telemetry_out::{TelemetryTargets, parse_destination};

/// The targets of `settings`.
///
/// # Errors
/// A destination that does not resolve, or bad rates or options, in one sentence.
pub fn targets_of(settings: &TelemetrySettings) -> Result<TelemetryTargets, String> {
    let resolve = |name: &str, text: &Option<String>| {
        text.as_deref()
            .map(parse_destination)
            .transpose()
            .map_err(|e| format!("{name} {e}"))
    };
    let targets = TelemetryTargets {
        outgauge: resolve("OutGauge", &settings.outgauge)?,
        outgauge_rate_hz: settings.outgauge_rate_hz,
        outsim: resolve("OutSim", &settings.outsim)?,
        outsim_rate_hz: settings.outsim_rate_hz,
        outsim_opts: settings.outsim_opts,
        id: settings.id,
        stream: resolve("Gripline stream", &settings.stream)?,
        stream_rate_hz: settings.stream_rate_hz,
    };
    targets.check()?;
    Ok(targets)
}

/// One line naming the streams being sent, or that none is.
pub fn describe(t: &TelemetryTargets) -> String {
    let mut parts = Vec::new();
    if let Some(to) = t.outgauge {
        parts.push(format!("OutGauge to {to} at {} Hz", t.outgauge_rate_hz));
    }
    if let Some(to) = t.outsim {
        parts.push(format!(
            "OutSim to {to} at {} Hz (options {:#x})",
            t.outsim_rate_hz, t.outsim_opts
        ));
    }
    if let Some(to) = t.stream {
        parts.push(format!(
            "Gripline stream to {to} at {} Hz",
            t.stream_rate_hz
        ));
    }
    if parts.is_empty() {
        "nothing sent".to_owned()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_resolve_into_targets_and_bad_ones_say_why() {
        let mut s = TelemetrySettings {
            outgauge: Some("127.0.0.1:30000".into()),
            ..TelemetrySettings::default()
        };
        let t = targets_of(&s).unwrap();
        assert_eq!(t.outgauge.unwrap().port(), 30000);
        assert!(t.outsim.is_none());
        assert_eq!(describe(&t), "OutGauge to 127.0.0.1:30000 at 60 Hz");
        s.outsim = Some("no port here".into());
        let error = targets_of(&s).unwrap_err();
        assert!(error.starts_with("OutSim no port here"), "{error}");
        assert_eq!(describe(&TelemetryTargets::default()), "nothing sent");
    }
}
