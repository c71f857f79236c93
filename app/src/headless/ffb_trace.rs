//! The force-feedback trace of a headless run (`--ffb-trace FILE [--ffb-profile FILE]`):
//! every tick's column torque, what each stage and effect of the pipeline asked for, the
//! torque at the wheel, the device level and the clip flag, as CSV.
//!
//! The trace runs the product's own path: a [`Rig`] (the sim thread's force-feedback owner:
//! device facts, per-car normalisation, soft lock, pipeline, safety gate) with the profile's
//! settings and device facts, fed the snapshot's column torque and steering angle each tick
//! exactly as the sim thread feeds it. Its backend is a null device; the level is what a
//! real one would receive. The output fades in over the profile's fade-in time at the start,
//! as on a real wheel.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use gripline_app::realtime::rig::{FfbLink, Rig, RigTorque};
use gripline_config::bindings::Bindings;
use gripline_config::ffb_profile::FfbProfile;
use gripline_input::ffb::backend::NullBackend;
use gripline_input::ffb::device_facts::{FfbDeviceFacts, PeakSource};
use gripline_physics::vehicle::{Snapshot, Vehicle};

use super::sim::DT;

/// The columns, in order.
pub const COLUMNS: &str = "t_s,column_nm,car_nm,damping_nm,friction_nm,inertia_nm,\
                           soft_lock_nm,requested_nm,output_nm,level,clipped";

/// Writes one row per tick (see the module docs).
pub struct FfbTrace {
    rig: Rig,
    out: BufWriter<File>,
    path: std::path::PathBuf,
    line: String,
    ticks: u64,
}

impl FfbTrace {
    /// Creates `path` for `vehicle` with the device and settings of `profile`.
    ///
    /// # Errors
    /// When the file cannot be created or written.
    pub fn create(path: &Path, profile: &FfbProfile, vehicle: &Vehicle) -> Result<Self> {
        let facts = FfbDeviceFacts {
            peak_torque_nm: profile.peak_torque_nm,
            peak_source: PeakSource::User,
            invert: profile.invert,
            rotation_deg: profile.rotation_deg,
        };
        let mut rig = Rig::new(
            &Bindings::default(),
            &profile.ffb,
            FfbLink {
                backend: Box::new(NullBackend),
                facts,
            },
        );
        rig.set_car(vehicle.params().steering.lock_deg, &vehicle.steering_feel());
        rig.start_ffb(Duration::ZERO);
        let file =
            File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
        let mut out = BufWriter::new(file);
        writeln!(out, "{COLUMNS}").with_context(|| format!("{}: cannot write", path.display()))?;
        Ok(Self {
            rig,
            out,
            path: path.to_owned(),
            line: String::with_capacity(256),
            ticks: 0,
        })
    }

    /// Runs the force-feedback tick of snapshot `s` and writes its row.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn record(&mut self, s: &Snapshot) -> Result<()> {
        self.ticks += 1;
        let now = Duration::from_secs_f64(self.ticks as f64 * DT);
        // The null backend never fails.
        let tick = self
            .rig
            .ffb_tick(
                now,
                Some(RigTorque::Column(s.column_torque_n_m)),
                s.controls.steering_wheel_rad,
                DT,
            )
            .unwrap_or_default();
        let step = tick.step.unwrap_or_default();
        let p = step.parts;
        self.line.clear();
        let _ = writeln!(
            self.line,
            "{},{},{},{},{},{},{},{},{},{},{}",
            s.time_s,
            s.column_torque_n_m,
            p.car_nm,
            p.damping_nm,
            p.friction_nm,
            p.inertia_nm,
            p.soft_lock_nm,
            step.requested_nm,
            step.torque_nm,
            tick.level,
            u8::from(step.clipped),
        );
        self.out
            .write_all(self.line.as_bytes())
            .with_context(|| format!("{}: cannot write", self.path.display()))
    }

    /// Flushes the file.
    ///
    /// # Errors
    /// When the last rows cannot be written.
    pub fn finish(mut self) -> Result<()> {
        self.out
            .flush()
            .with_context(|| format!("{}: cannot write", self.path.display()))
    }
}
