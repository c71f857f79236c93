//! The force-feedback trace of a headless run (`--ffb-trace FILE [--ffb-profile FILE]`):
//! every tick's column torque, what each stage and effect of the pipeline asked for, the
//! torque at the wheel, the device level and the clip flag, as CSV.
//!
//! The trace runs the product's own path: a [`Rig`] (the sim thread's force-feedback owner:
//! device facts, per-car normalisation, soft lock, pipeline, safety gate) with the profile's
//! settings and device facts, fed the snapshot's column torque and steering angle each tick
//! exactly as the sim thread feeds it. Its backend is a null device; the level is what a
//! real one would receive. The output fades in over the profile's fade-in time at the start,
//! as on a real wheel. It follows the run as a [`TickObserver`]: the rig is set up for the
//! car when the run starts it.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use gripline_formats::vehicle_sound::SoundParams;
use gripline_input::ffb::backend::NullBackend;
use gripline_input::ffb::device_facts::{FfbDeviceFacts, PeakSource};
use gripline_input::ffb::effects::FeelInput;
use gripline_input::settings::bindings::Bindings;
use gripline_input::settings::ffb_profile::FfbProfile;
use gripline_physics::vehicle::{Snapshot, SteeringFeel, Vehicle};

use crate::observer::TickObserver;
use crate::realtime::rig::{FfbLink, Rig, RigTorque};

/// The columns, in order.
pub const COLUMNS: &str = "t_s,column_nm,car_nm,road_nm,kerb_nm,scrub_nm,lockup_nm,\
                           wheelspin_nm,abs_nm,lateral_nm,damping_nm,friction_nm,inertia_nm,\
                           soft_lock_nm,requested_nm,output_nm,level,clipped";

/// Writes one row per tick (see the module docs).
pub struct FfbTrace {
    profile: FfbProfile,
    /// The force-feedback owner and the car's steering feel, from [`TickObserver::start`].
    car: Option<(Rig, SteeringFeel)>,
    out: BufWriter<File>,
    path: std::path::PathBuf,
    line: String,
    ticks: u64,
}

impl FfbTrace {
    /// Creates `path` for the device and settings of `profile`.
    ///
    /// # Errors
    /// When the file cannot be created or written.
    pub fn create(path: &Path, profile: &FfbProfile) -> Result<Self> {
        let file =
            File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
        let mut out = BufWriter::new(file);
        writeln!(out, "{COLUMNS}").with_context(|| format!("{}: cannot write", path.display()))?;
        Ok(Self {
            profile: profile.clone(),
            car: None,
            out,
            path: path.to_owned(),
            line: String::with_capacity(256),
            ticks: 0,
        })
    }

    /// Runs the force-feedback tick of snapshot `s`, `dt` seconds after the last, and writes
    /// its row.
    ///
    /// # Errors
    /// When the file cannot be written; before [`TickObserver::start`].
    pub fn record(&mut self, s: &Snapshot, dt: f64) -> Result<()> {
        let Some((rig, feel)) = &mut self.car else {
            bail!("{}: the trace has no car yet", self.path.display());
        };
        self.ticks += 1;
        let now = Duration::from_secs_f64(self.ticks as f64 * dt);
        // The null backend never fails.
        let tick = rig
            .ffb_tick(
                now,
                Some(RigTorque::Car {
                    column_nm: s.column_torque_n_m,
                    feel: FeelInput::from_snapshot(s, feel),
                }),
                s.controls.steering_wheel_rad,
                dt,
            )
            .unwrap_or_default();
        let step = tick.step.unwrap_or_default();
        let p = step.parts;
        let e = p.effects;
        self.line.clear();
        let _ = writeln!(
            self.line,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            s.time_s,
            s.column_torque_n_m,
            p.car_nm,
            e.road_nm,
            e.kerb_nm,
            e.scrub_nm,
            e.lockup_nm,
            e.wheelspin_nm,
            e.abs_nm,
            e.lateral_nm,
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
}

/// The trace follows a run's ticks: a fresh [`Rig`] for each car it starts with (fading in
/// from zero, as a real wheel does at the start), a row per tick, the file flushed at the end.
impl TickObserver for FfbTrace {
    fn start(&mut self, vehicle: &Vehicle, _sound: &SoundParams, _step_s: f64) -> Result<()> {
        let profile = &self.profile;
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
        let feel = vehicle.steering_feel();
        rig.set_car(vehicle.params().steering.lock_deg, &feel);
        rig.start_ffb(Duration::ZERO);
        self.car = Some((rig, feel));
        self.ticks = 0;
        Ok(())
    }

    fn tick(&mut self, snapshot: &Snapshot, step_s: f64, _paused: bool) -> Result<()> {
        self.record(snapshot, step_s)
    }

    fn finish(&mut self) -> Result<()> {
        self.out
            .flush()
            .with_context(|| format!("{}: cannot write", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use glam::{DVec2, DVec3};
    use gripline_formats::vehicle_file::load_vehicle;
    use gripline_input::settings::ffb_effects::FfbEffectSettings;
    use gripline_physics::controls::Controls;
    use gripline_physics::ground::{Ground, Surface};
    use gripline_physics::powertrain::GearboxMode;

    use super::super::run::Run;
    use super::*;
    use crate::session::Session;
    use crate::world::World;

    /// Every effect on at 1 N·m (road texture 1 N·m per kN).
    fn profile() -> FfbProfile {
        let mut p = FfbProfile::default();
        p.ffb.max_torque_nm = 6.0;
        p.ffb.fade_in_s = 0.0;
        p.ffb.effects = FfbEffectSettings {
            road_texture_nm_per_kn: 1.0,
            kerb_rumble_nm: 1.0,
            scrub_nm: 1.0,
            lockup_nm: 1.0,
            wheelspin_nm: 1.0,
            abs_nm: 1.0,
            lateral_g_nm_per_g: 0.0,
            auto_gain: false,
        };
        p
    }

    fn vehicle() -> Vehicle {
        let path = gripline_formats::assets::resolve_vehicle("corvette-c5").expect("shipped");
        load_vehicle(&path).expect("valid").build().expect("builds")
    }

    /// Runs `ticks` ticks with `controls` from the car placed at `xy`, `heading`, at
    /// `speed_m_s`, tracing; returns the trace's rows as columns by name.
    fn trace(
        world: &World,
        car: Vehicle,
        xy: DVec2,
        heading: f64,
        speed_m_s: f64,
        controls: Controls,
        ticks: usize,
    ) -> std::collections::HashMap<String, Vec<f64>> {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("ffb.csv");
        let session = Session::new(car, world.clone()).expect("a session");
        let mut sim = Run::new(session);
        sim.place(xy, heading, GearboxMode::Automatic)
            .expect("ground");
        sim.set_forward_speed(speed_m_s);
        let trace = FfbTrace::create(&path, &profile()).expect("trace");
        sim.observe(Box::new(trace)).expect("trace started");
        for _ in 0..ticks {
            sim.step(&controls).expect("step");
        }
        sim.finish().expect("flush");
        let text = std::fs::read_to_string(&path).expect("read back");
        let mut lines = text.lines();
        let names: Vec<String> = lines
            .next()
            .expect("header")
            .split(',')
            .map(str::to_owned)
            .collect();
        assert_eq!(names.join(","), COLUMNS);
        let mut columns: std::collections::HashMap<String, Vec<f64>> =
            names.iter().map(|n| (n.clone(), Vec::new())).collect();
        for line in lines {
            for (name, value) in names.iter().zip(line.split(',')) {
                columns
                    .get_mut(name)
                    .expect("named")
                    .push(value.parse().expect("a number"));
            }
        }
        columns
    }

    /// Dominant frequency of the non-zero stretch of a 1 kHz signal, by sign changes.
    fn ripple_hz(signal: &[f64]) -> f64 {
        let active: Vec<f64> = signal.iter().copied().filter(|x| *x != 0.0).collect();
        let crossings = active
            .windows(2)
            .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
            .count();
        crossings as f64 / (2.0 * active.len() as f64 * 0.001)
    }

    #[test]
    fn a_kerb_strike_ripples_above_20_hz_in_the_trace() {
        let world = World::load("circuit").expect("shipped track");
        let line = &world.track().expect("a track").mesh.centre_line;
        // Find a kerb beside the centre line (the first corner's), searching outwards.
        let (kerb, tangent) = (0..2000u32)
            .map(|i| 2.0 * f64::from(i))
            .take_while(|d| *d < line.length_m())
            .find_map(|d| {
                let s = line.sample_at(d)?;
                let left = DVec2::new(-s.tangent.y, s.tangent.x).normalize();
                (1..40).find_map(|k| {
                    for side in [1.0, -1.0] {
                        let xy = s.position.truncate() + left * side * (0.25 * f64::from(k));
                        let hit = world.ray_cast(xy.extend(50.0), -DVec3::Z, 150.0)?;
                        if hit.surface == Surface::Kerb {
                            // The middle of the 1.2 m kerb, not its inner edge.
                            return Some((xy + left * side * 0.6, s.tangent.truncate()));
                        }
                    }
                    None
                })
            })
            .expect("the circuit has kerbs");
        // The car's left front tyre on the kerb, rolling along it at 15 m/s.
        let car = vehicle();
        let p = car.params();
        let (a, half_track) = (p.cg_to_front_axle_m(), 0.5 * p.front.track_m);
        let heading = tangent.y.atan2(tangent.x);
        let forward = DVec2::new(heading.cos(), heading.sin());
        let left = forward.perp();
        let cg = kerb - forward * a - left * half_track;
        let t = trace(&world, car, cg, heading, 15.0, Controls::default(), 300);
        let kerb_nm = &t["kerb_nm"];
        let active = kerb_nm.iter().filter(|x| x.abs() > 0.1).count();
        assert!(active > 50, "the tyre rode the kerb: {active} ticks");
        let hz = ripple_hz(kerb_nm);
        assert!(hz > 20.0, "kerb ripple at {hz} Hz");
        // It reaches the output: the torque sent carries the ripple.
        let peak = kerb_nm.iter().map(|x| x.abs()).fold(0.0, f64::max);
        assert!(peak > 0.2 && peak <= 1.0 + 1e-9, "{peak}");
        assert!(t["output_nm"].iter().all(|x| x.abs() <= 6.0 + 1e-9));
    }

    #[test]
    fn a_locked_front_wheel_vibrates_and_a_smooth_straight_is_quiet() {
        let world = World::load("proving-ground").expect("shipped track");
        let (xy, heading) = world.straight_start().expect("a straight");
        // Cruising straight: no kerb, scrub, lock-up, wheelspin or ABS.
        let cruise = Controls {
            throttle: 0.25,
            ..Controls::default()
        };
        let t = trace(&world, vehicle(), xy, heading, 25.0, cruise, 1500);
        for name in ["kerb_nm", "scrub_nm", "lockup_nm", "wheelspin_nm", "abs_nm"] {
            assert!(
                t[name].iter().all(|x| *x == 0.0),
                "{name} on a smooth straight"
            );
        }
        // Full brakes without ABS from 25 m/s: the fronts lock and the wheel vibrates.
        let mut car = vehicle();
        let mut aids = car.params().aids.clone();
        aids.abs_enabled = false;
        car.set_aids(aids).expect("valid aids");
        let brake = Controls {
            brake: 1.0,
            ..Controls::default()
        };
        let t = trace(&world, car, xy, heading, 25.0, brake, 1500);
        let lock = &t["lockup_nm"];
        assert!(lock.iter().filter(|x| **x != 0.0).count() > 200, "locked");
        let hz = ripple_hz(lock);
        assert!((hz - 30.0).abs() < 3.0, "lock-up vibration at {hz} Hz");
        assert!(t["abs_nm"].iter().all(|x| *x == 0.0), "no ABS without ABS");
    }
}
