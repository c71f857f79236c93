//! Telemetry of a headless run: one CSV row per recorded tick, streamed to a file.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};
use gripline_physics::vehicle::Snapshot;

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
        for wheel in WHEELS {
            for field in WHEEL_FIELDS {
                let _ = write!(header, ",{wheel}_{field}");
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
        l.push('\n');
        self.out
            .write_all(l.as_bytes())
            .context("cannot write telemetry")
    }

    /// Flushes the file.
    ///
    /// # Errors
    /// When the last rows cannot be written.
    pub fn finish(mut self) -> Result<()> {
        self.out.flush().context("cannot write telemetry")
    }
}
