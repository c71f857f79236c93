//! Laps as CSV files: the analysis export and the saved best lap per car and track (the
//! ghost) are the same format. Comment lines (`# key: value`) carry the lap's facts, then a
//! header row and one row per sample, numbers written to the precision that reads back to
//! the same bits.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use glam::{DQuat, DVec3};

use super::lap::CompletedLap;
use super::sample::{LapSample, WheelSample};

/// The first line of a lap file.
pub const SIGNATURE: &str = "# gripline lap 1";

/// What a lap file says about its lap besides the samples.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LapFacts {
    /// The car's name.
    pub vehicle: String,
    /// The track's name.
    pub track: String,
    /// The build that drove it.
    pub build: String,
}

const COLUMNS: &str = "lap_time_s,station_m,x_m,y_m,z_m,qx,qy,qz,qw,speed_m_s,throttle,brake,\
steering_wheel_rad,gear,lateral_g";
const WHEELS: [&str; 4] = ["fl", "fr", "rl", "rr"];
const WHEEL_COLUMNS: [&str; 6] = ["x_m", "y_m", "z_m", "steer_rad", "travel_m", "spin_rad"];

/// The lap as the text of a lap file.
pub fn lap_csv(lap: &CompletedLap, facts: &LapFacts) -> String {
    let mut out = String::with_capacity(lap.samples.len() * 400 + 512);
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    let _ = writeln!(out, "{SIGNATURE}");
    let _ = writeln!(out, "# vehicle: {}", one_line(&facts.vehicle));
    let _ = writeln!(out, "# track: {}", one_line(&facts.track));
    let _ = writeln!(out, "# build: {}", one_line(&facts.build));
    let _ = writeln!(out, "# lap_time_s: {}", lap.lap_time_s);
    let _ = writeln!(out, "# length_m: {}", lap.length_m);
    let sectors = lap.sector_times_s();
    let _ = writeln!(
        out,
        "# sectors_s: {}",
        sectors.map(|s| format!("{s:.3}")).join(",")
    );
    out.push_str(COLUMNS);
    for w in WHEELS {
        for c in WHEEL_COLUMNS {
            let _ = write!(out, ",{w}_{c}");
        }
    }
    out.push('\n');
    for s in &lap.samples {
        let q = s.orientation;
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            s.lap_time_s,
            s.station_m,
            s.position_m.x,
            s.position_m.y,
            s.position_m.z,
            q.x,
            q.y,
            q.z,
            q.w,
            s.speed_m_per_s,
            s.throttle,
            s.brake,
            s.steering_wheel_rad,
            s.gear,
            s.lateral_g
        );
        for w in &s.wheels {
            let _ = write!(
                out,
                ",{},{},{},{},{},{}",
                w.centre_m.x, w.centre_m.y, w.centre_m.z, w.steer_rad, w.travel_m, w.spin_angle_rad
            );
        }
        out.push('\n');
    }
    out
}

/// Writes the lap to `path` (beside it first, then renamed into place).
///
/// # Errors
/// The folder or the file cannot be written.
pub fn save_lap(path: &Path, lap: &CompletedLap, facts: &LapFacts) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create the folder", dir.display()))?;
    }
    let partial = path.with_extension("partial");
    std::fs::write(&partial, lap_csv(lap, facts))
        .with_context(|| format!("{}: cannot write", partial.display()))?;
    std::fs::rename(&partial, path).with_context(|| format!("{}: cannot save", path.display()))
}

/// Reads a lap file.
///
/// # Errors
/// The file cannot be read; it is not a lap file; a row or fact is damaged (named by line).
pub fn load_lap(path: &Path) -> Result<(CompletedLap, LapFacts)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    parse_lap(&text).with_context(|| format!("{}", path.display()))
}

/// Parses the text of a lap file.
///
/// # Errors
/// As [`load_lap`].
pub fn parse_lap(text: &str) -> Result<(CompletedLap, LapFacts)> {
    let mut lines = text.lines().enumerate();
    if lines.next().map(|(_, l)| l.trim_end()) != Some(SIGNATURE) {
        bail!("not a Gripline lap file (it does not start with '{SIGNATURE}')");
    }
    let mut facts = LapFacts::default();
    let (mut lap_time_s, mut length_m) = (None, None);
    let number = |n: usize, v: &str| -> Result<f64> {
        let x: f64 = v
            .trim()
            .parse()
            .with_context(|| format!("line {}: '{v}' is not a number", n + 1))?;
        if x.is_finite() {
            Ok(x)
        } else {
            bail!("line {}: '{v}' is not finite", n + 1)
        }
    };
    let mut samples: Vec<LapSample> = Vec::new();
    let width = 15 + 4 * WHEEL_COLUMNS.len();
    for (n, line) in lines {
        if let Some(fact) = line.strip_prefix("# ") {
            let (key, value) = fact.split_once(": ").unwrap_or((fact, ""));
            match key {
                "vehicle" => value.clone_into(&mut facts.vehicle),
                "track" => value.clone_into(&mut facts.track),
                "build" => value.clone_into(&mut facts.build),
                "lap_time_s" => lap_time_s = Some(number(n, value)?),
                "length_m" => length_m = Some(number(n, value)?),
                _ => {}
            }
            continue;
        }
        if line.starts_with("lap_time_s,") || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != width {
            bail!("line {}: {} columns, not {width}", n + 1, fields.len());
        }
        let f = |i: usize| number(n, fields[i]);
        let gear = fields[13]
            .trim()
            .parse::<i8>()
            .with_context(|| format!("line {}: '{}' is not a gear", n + 1, fields[13]))?;
        let mut wheels = [WheelSample::default(); 4];
        for (k, w) in wheels.iter_mut().enumerate() {
            let base = 15 + k * WHEEL_COLUMNS.len();
            *w = WheelSample {
                centre_m: DVec3::new(f(base)?, f(base + 1)?, f(base + 2)?),
                steer_rad: f(base + 3)?,
                travel_m: f(base + 4)?,
                spin_angle_rad: f(base + 5)?,
            };
        }
        let orientation = DQuat::from_xyzw(f(5)?, f(6)?, f(7)?, f(8)?);
        if orientation.length_squared() < 1e-6 {
            bail!("line {}: not a rotation", n + 1);
        }
        let sample = LapSample {
            lap_time_s: f(0)?,
            station_m: f(1)?,
            position_m: DVec3::new(f(2)?, f(3)?, f(4)?),
            orientation: if (orientation.length_squared() - 1.0).abs() > 1e-9 {
                orientation.normalize()
            } else {
                orientation
            },
            speed_m_per_s: f(9)?,
            throttle: f(10)?,
            brake: f(11)?,
            steering_wheel_rad: f(12)?,
            gear,
            lateral_g: f(14)?,
            wheels,
        };
        if let Some(last) = samples.last()
            && (sample.lap_time_s < last.lap_time_s || sample.station_m < last.station_m)
        {
            bail!("line {}: time or distance goes backwards", n + 1);
        }
        samples.push(sample);
    }
    let lap_time_s = lap_time_s.context("no '# lap_time_s:' line")?;
    let length_m = length_m.context("no '# length_m:' line")?;
    if samples.len() < 2 || !(lap_time_s > 0.0 && length_m > 0.0) {
        bail!("the lap has no samples or no length");
    }
    Ok((
        CompletedLap {
            lap_time_s,
            length_m,
            samples,
        },
        facts,
    ))
}
