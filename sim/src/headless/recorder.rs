//! Telemetry of a headless run: one CSV row per recorded tick, streamed to a file.
//!
//! Columns: time, pose, velocities, accelerations, controls, engine and column torque; then
//! per wheel (`fl`, `fr`, `rl`, `rr`) its load, slips, forces, spin and travel; then per wheel
//! its tyre's thermal state (tread, carcass, gas and rim temperatures in °C, hot gauge
//! pressure in Pa, wear as the fraction of tread used, grip factor), which reads the air
//! temperature, the set pressure, 0 and 1 for a tyre without thermal model. New columns are
//! appended, so readers that find columns by name or position keep working.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};
use gripline_formats::vehicle_sound::SoundParams;
use gripline_physics::vehicle::{Snapshot, Vehicle};

use crate::observer::TickObserver;

const WHEELS: [&str; 4] = ["fl", "fr", "rl", "rr"];
const WHEEL_FIELDS: [&str; 8] = [
    "load_n",
    "slip_ratio",
    "slip_angle_rad",
    "fx_n",
    "fy_n",
    "mz_nm",
    "spin_rad_s",
    "travel_m",
];

const THERMAL_FIELDS: [&str; 7] = [
    "tread_temp_c",
    "carcass_temp_c",
    "gas_temp_c",
    "rim_temp_c",
    "pressure_pa",
    "wear",
    "grip_factor",
];

/// Writes every `every`-th snapshot as a CSV row.
pub struct Recorder {
    out: BufWriter<File>,
    every: u64,
    count: u64,
    line: String,
}

impl Recorder {
    /// Creates `path` and writes the header.
    ///
    /// # Errors
    /// When the file cannot be created or written.
    pub fn create(path: &Path, every: u64) -> Result<Self> {
        let file =
            File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
        let mut out = BufWriter::new(file);
        let mut header = String::from(
            "t_s,x_m,y_m,z_m,roll_rad,pitch_rad,yaw_rad,vx_m_s,vy_m_s,speed_m_s,ax_m_s2,ay_m_s2,\
             yaw_rate_rad_s,steering_wheel_rad,throttle,brake,clutch,gear,engine_rpm,\
             engine_torque_nm,column_torque_nm",
        );
        for fields in [&WHEEL_FIELDS[..], &THERMAL_FIELDS[..]] {
            for wheel in WHEELS {
                for field in fields {
                    let _ = write!(header, ",{wheel}_{field}");
                }
            }
        }
        writeln!(out, "{header}").with_context(|| format!("{}: cannot write", path.display()))?;
        Ok(Self {
            out,
            every: every.max(1),
            count: 0,
            line: String::with_capacity(1024),
        })
    }

    /// Records `s` if it is one of the recorded ticks.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn record(&mut self, s: &Snapshot) -> Result<()> {
        let due = self.count.is_multiple_of(self.every);
        self.count += 1;
        if !due {
            return Ok(());
        }
        let (roll, pitch, yaw) = {
            let (z, y, x) = s.orientation.to_euler(glam::EulerRot::ZYX);
            (x, y, z)
        };
        self.line.clear();
        let l = &mut self.line;
        let _ = write!(
            l,
            "{:.4},{:.4},{:.4},{:.4},{:.5},{:.5},{:.5},{:.4},{:.4},{:.4},{:.4},{:.4},{:.5},{:.5},{:.3},{:.3},{:.3},{},{:.1},{:.2},{:.3}",
            s.time_s,
            s.position.x,
            s.position.y,
            s.position.z,
            roll,
            pitch,
            yaw,
            s.velocity_body.x,
            s.velocity_body.y,
            s.speed_m_per_s,
            s.specific_force_body.x,
            s.specific_force_body.y,
            s.angular_velocity_body.z,
            s.steering_wheel_rad,
            s.throttle_applied,
            s.controls.brake,
            s.controls.clutch,
            s.powertrain.gear,
            s.powertrain.engine_rpm,
            s.powertrain.engine_torque_nm,
            s.column_torque_n_m,
        );
        for w in &s.wheels {
            let _ = write!(
                l,
                ",{:.1},{:.5},{:.5},{:.1},{:.1},{:.2},{:.3},{:.4}",
                w.load_n,
                w.slip_ratio,
                w.slip_angle_rad,
                w.fx_n,
                w.fy_n,
                w.mz_n_m,
                w.spin_rad_per_s,
                w.suspension_travel_m
            );
        }
        for w in &s.wheels {
            let _ = write!(
                l,
                ",{:.3},{:.3},{:.3},{:.3},{:.1},{:.8},{:.5}",
                w.tread_temp_c,
                w.carcass_temp_c,
                w.gas_temp_c,
                w.rim_temp_c,
                w.pressure_pa,
                w.wear,
                w.grip_factor
            );
        }
        l.push('\n');
        self.out
            .write_all(l.as_bytes())
            .context("cannot write telemetry")
    }
}

/// The recorder follows a run's ticks: every tick is offered ([`Recorder::record`]), the
/// file is flushed at the end.
impl TickObserver for Recorder {
    fn start(&mut self, _vehicle: &Vehicle, _sound: &SoundParams, _step_s: f64) -> Result<()> {
        Ok(())
    }

    fn tick(&mut self, snapshot: &Snapshot, _step_s: f64, _paused: bool) -> Result<()> {
        self.record(snapshot)
    }

    fn finish(&mut self) -> Result<()> {
        self.out.flush().context("cannot write telemetry")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns before this change, in order: they must stay the CSV's first columns.
    const OLD_HEADER: &str = "t_s,x_m,y_m,z_m,roll_rad,pitch_rad,yaw_rad,vx_m_s,vy_m_s,\
        speed_m_s,ax_m_s2,ay_m_s2,yaw_rate_rad_s,steering_wheel_rad,throttle,brake,clutch,gear,\
        engine_rpm,engine_torque_nm,column_torque_nm";

    #[test]
    fn thermal_columns_are_appended_after_the_old_ones() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("t.csv");
        let mut recorder = Recorder::create(&path, 1).expect("created");
        let mut s = Snapshot::default();
        s.wheels[2].tread_temp_c = 71.25;
        s.wheels[2].gas_temp_c = 44.5;
        s.wheels[2].pressure_pa = 223_456.7;
        s.wheels[2].wear = 0.012_345_67;
        s.wheels[2].grip_factor = 0.987_65;
        s.wheels[3].rim_temp_c = 60.0;
        recorder.record(&s).expect("written");
        recorder.finish().expect("flushed");
        let text = std::fs::read_to_string(&path).expect("read");
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().expect("header").split(',').collect();
        let row: Vec<&str> = lines.next().expect("row").split(',').collect();
        assert_eq!(header.len(), row.len());
        let old: Vec<&str> = OLD_HEADER.split(',').collect();
        assert_eq!(header[..old.len()], old[..]);
        let mut expected_wheels = Vec::new();
        for w in ["fl", "fr", "rl", "rr"] {
            for f in [
                "load_n",
                "slip_ratio",
                "slip_angle_rad",
                "fx_n",
                "fy_n",
                "mz_nm",
                "spin_rad_s",
                "travel_m",
            ] {
                expected_wheels.push(format!("{w}_{f}"));
            }
        }
        assert_eq!(
            header[old.len()..old.len() + 32],
            expected_wheels
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()[..]
        );
        assert_eq!(header.len(), old.len() + 32 + 28);
        let at = |name: &str| {
            let i = header.iter().position(|h| *h == name).expect(name);
            row[i].parse::<f64>().expect(name)
        };
        assert!((at("rl_tread_temp_c") - 71.25).abs() < 1e-9);
        assert!((at("rl_gas_temp_c") - 44.5).abs() < 1e-9);
        assert!((at("rl_pressure_pa") - 223_456.7).abs() < 1e-6);
        assert!((at("rl_wear") - 0.012_345_67).abs() < 1e-9);
        assert!((at("rl_grip_factor") - 0.987_65).abs() < 1e-9);
        assert!((at("rr_rim_temp_c") - 60.0).abs() < 1e-9);
        assert!(at("fl_tread_temp_c").abs() < 1e-9);
        assert_eq!(header.last(), Some(&"rr_grip_factor"));
    }
}
