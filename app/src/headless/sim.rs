//! A vehicle in a world, stepped at the real-time rate, with what the procedures share:
//! placing the car, reading its heading and rear axle, and keeping it on a line.

use anyhow::Result;
use glam::{DVec2, DVec3};
use gripline_physics::controls::Controls;
use gripline_physics::driver::{Path, PreviewSteering, SteeringGeometry};
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::vehicle::{Snapshot, Vehicle};

use super::ffb_trace::FfbTrace;
use super::recorder::Recorder;
use super::world::World;

/// The physics step of the real-time loop (s).
pub const DT: f64 = 0.001;

/// A vehicle, its world and the telemetry recorder.
pub struct Sim<'w> {
    /// The vehicle.
    pub vehicle: Vehicle,
    /// The world.
    pub world: &'w World,
    recorder: Option<Recorder>,
    ffb_trace: Option<FfbTrace>,
    /// Ticks stepped since the start.
    pub ticks: u64,
}

impl<'w> Sim<'w> {
    /// A simulation of `vehicle` in `world`, recording to `recorder` if given.
    pub fn new(vehicle: Vehicle, world: &'w World, recorder: Option<Recorder>) -> Self {
        Self {
            vehicle,
            world,
            recorder,
            ffb_trace: None,
            ticks: 0,
        }
    }

    /// Records the force feedback of every tick from now on (see [`FfbTrace`]).
    pub fn trace_ffb(&mut self, trace: FfbTrace) {
        self.ffb_trace = Some(trace);
    }

    /// One physics tick with `controls`.
    ///
    /// # Errors
    /// When the telemetry cannot be written.
    pub fn step(&mut self, controls: &Controls) -> Result<()> {
        self.vehicle.step(controls, self.world, DT);
        self.ticks += 1;
        if let Some(recorder) = &mut self.recorder {
            recorder.record(self.vehicle.snapshot())?;
        }
        if let Some(trace) = &mut self.ffb_trace {
            trace.record(self.vehicle.snapshot())?;
        }
        Ok(())
    }

    /// The state after the last tick.
    pub fn snapshot(&self) -> &Snapshot {
        self.vehicle.snapshot()
    }

    /// Seconds simulated so far.
    pub fn simulated_s(&self) -> f64 {
        self.ticks as f64 * DT
    }

    /// Puts the car at rest on the ground at `xy`, heading `heading` (rad from +x), in the
    /// gearbox mode `mode`.
    ///
    /// # Errors
    /// When there is no ground at `xy`.
    pub fn place(&mut self, xy: DVec2, heading: f64, mode: GearboxMode) -> Result<()> {
        let (point, normal) = self.world.ground_at(xy)?;
        let pose = self.vehicle.pose_at_rest(point, normal, heading);
        self.vehicle.reset_to(pose);
        self.vehicle.powertrain_mut().set_mode(mode);
        Ok(())
    }

    /// Heading (rad from +x) of the body's forward axis in the ground plane.
    pub fn yaw(&self) -> f64 {
        let x = self.snapshot().orientation.mul_vec3(DVec3::X);
        x.y.atan2(x.x)
    }

    /// Forward speed (m/s).
    pub fn forward_speed(&self) -> f64 {
        self.snapshot().velocity_body.x
    }

    /// Position of the rear axle's centre in the ground plane.
    pub fn rear_axle(&self) -> DVec2 {
        let s = self.snapshot();
        let back = self.vehicle.params().cg_to_rear_axle_m();
        (s.position - s.orientation.mul_vec3(DVec3::X) * back).truncate()
    }

    /// The car's steering as the driver model needs it.
    pub fn steering_geometry(&self) -> SteeringGeometry {
        let p = self.vehicle.params();
        SteeringGeometry {
            wheelbase_m: p.chassis.wheelbase_m,
            steering_ratio: p.steering.ratio,
            max_steering_wheel_rad: p.steering.lock_deg.to_radians(),
        }
    }

    /// Finishes the telemetry file.
    ///
    /// # Errors
    /// When the last rows cannot be written.
    pub fn finish(self) -> Result<()> {
        if let Some(trace) = self.ffb_trace {
            trace.finish()?;
        }
        match self.recorder {
            Some(recorder) => recorder.finish(),
            None => Ok(()),
        }
    }
}

/// Keeps the car on a straight or curved line with preview steering.
pub struct LineKeeper {
    path: Path,
    steering: PreviewSteering,
    hint: Option<usize>,
}

impl LineKeeper {
    /// Follows `path`.
    pub fn new(path: Path) -> Self {
        Self {
            path,
            steering: PreviewSteering::default(),
            hint: None,
        }
    }

    /// The same keeper looking `preview_time_s` ahead (shorter for tight manoeuvres).
    #[must_use]
    pub fn with_preview(mut self, preview_time_s: f64) -> Self {
        self.steering.preview_time_s = preview_time_s;
        self.steering.min_preview_m = self.steering.min_preview_m.min(4.0);
        self
    }

    /// A straight line from `start` along `heading` for `length` metres.
    ///
    /// # Errors
    /// Never for a finite start and heading and a positive length.
    pub fn straight(start: DVec2, heading: f64, length: f64) -> Result<Self> {
        let direction = DVec2::new(heading.cos(), heading.sin());
        Ok(Self::new(Path::new(
            &[start - direction * 50.0, start + direction * length],
            false,
        )?))
    }

    /// Steering-wheel angle for the car's current state; also returns the car's lateral
    /// offset from the line (m, positive left).
    pub fn steer(&mut self, sim: &Sim<'_>) -> (f64, f64) {
        let rear = sim.rear_axle();
        let projection = match self.hint {
            Some(hint) => self.path.project_near(rear, hint, 8),
            None => self.path.project(rear),
        };
        self.hint = Some(projection.segment);
        let wheel = self.steering.steer(
            &self.path,
            projection.station,
            rear,
            sim.yaw(),
            sim.forward_speed(),
            &sim.steering_geometry(),
        );
        (wheel, projection.lateral_offset)
    }
}
