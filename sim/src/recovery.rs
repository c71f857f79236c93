//! Recovery: when a car cannot go on by itself it is put back on the road, at rest, and the
//! session says why ([`Recovery`]).
//!
//! [`RecoveryWatch`] looks at every tick's state, allocation-free, and calls for a recovery
//! when the car is
//! - **out of the world**: its state is not finite, its centre of mass is below
//!   [`FLOOR_Z_M`], or, with no wheel and no body point touching anything, there has been no
//!   ground within [`GROUND_SEARCH_M`] below it, or ground above it (it fell through), for
//!   [`OUT_OF_WORLD_S`];
//! - **upside down**: its body's up axis more than [`OVERTURNED_TILT_DEG`] from vertical (on
//!   its roof or its side) at under [`OVERTURNED_SPEED_M_PER_S`] for [`OVERTURNED_S`] in a
//!   row;
//! - **stuck**: under [`STUCK_SPEED_M_PER_S`] (1 km/h) with the throttle at least
//!   [`STUCK_THROTTLE`] and neither brake nor clutch nor handbrake held for [`STUCK_S`] in a
//!   row (the driver wants to go and the car does not: beached, wedged against a wall). A car
//!   held on the brake or the clutch at a launch is not stuck.
//!
//! Where the car goes ([`safe_placement`]): on a world with a centre line, the line's point
//! nearest the car (horizontally), heading along the line (the way its stations run), on the
//! ground there; on the endless plane, where it is, upright, heading where it headed. The
//! driver's reset key asks for the same at once ([`RecoveryReason::Requested`]).

use glam::{DQuat, DVec3};
use gripline_physics::ground::Ground;
use gripline_physics::track::CentreLine;
use gripline_physics::vehicle::Snapshot;

/// Below this height (m) the car has left the world at once.
pub const FLOOR_Z_M: f64 = -1_000.0;
/// How far below the car (m) ground is looked for when nothing touches it.
pub const GROUND_SEARCH_M: f64 = 200.0;
/// How long (s) the car may be without ground below it before it is recovered.
pub const OUT_OF_WORLD_S: f64 = 0.25;
/// Tilt of the body's up axis from vertical (degrees) beyond which the car is overturned.
pub const OVERTURNED_TILT_DEG: f64 = 75.0;
/// Speed (m/s) under which an overturned car is counted as upside down.
pub const OVERTURNED_SPEED_M_PER_S: f64 = 3.0;
/// How long (s) the car must stay overturned and slow.
pub const OVERTURNED_S: f64 = 2.0;
/// Speed (m/s) under which a car with the throttle applied counts as stuck: 1 km/h.
pub const STUCK_SPEED_M_PER_S: f64 = 1.0 / 3.6;
/// Throttle (0 to 1) from which the driver wants to go.
pub const STUCK_THROTTLE: f64 = 0.2;
/// Brake, clutch or handbrake (0 to 1) from which the driver holds the car.
pub const HELD_PEDAL: f64 = 0.1;
/// How long (s) the car must stay stuck.
pub const STUCK_S: f64 = 5.0;
/// How far above the centre line (m) the ground is looked for under a recovery point.
const PLACE_ABOVE_M: f64 = 5.0;

/// Why a car was put back on the road.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecoveryReason {
    /// On its roof or side, slow, for [`OVERTURNED_S`].
    UpsideDown,
    /// Not moving with the throttle applied for [`STUCK_S`].
    Stuck,
    /// Outside the drivable world: below the ground, beyond it, or a non-finite state.
    OutOfWorld,
    /// The driver pressed the reset key.
    Requested,
}

impl RecoveryReason {
    /// A short name for summaries and logs: `upside-down`, `stuck`, `out-of-world`,
    /// `requested`.
    pub fn name(self) -> &'static str {
        match self {
            Self::UpsideDown => "upside-down",
            Self::Stuck => "stuck",
            Self::OutOfWorld => "out-of-world",
            Self::Requested => "requested",
        }
    }

    /// What happened, for the driver.
    pub fn describe(self) -> &'static str {
        match self {
            Self::UpsideDown => "the car was upside down",
            Self::Stuck => "the car was stuck",
            Self::OutOfWorld => "the car left the world",
            Self::Requested => "reset",
        }
    }
}

impl std::fmt::Display for RecoveryReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One recovery: when, why, and where the car was put.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recovery {
    /// The session time of the tick that ended in it (s).
    pub time_s: f64,
    /// Why.
    pub reason: RecoveryReason,
    /// Where the car's centre of mass was before (world frame, m; may be non-finite).
    pub from: DVec3,
    /// Where the car's centre of mass was put (world frame, m).
    pub to: DVec3,
    /// The heading it was put at (rad from +x).
    pub heading_rad: f64,
}

/// The timers of the recovery rules (see the module docs). Plain data: a session's copy
/// evolves the same in a replay.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(clippy::struct_field_names)] // Three durations, each named with its unit.
pub struct RecoveryWatch {
    overturned_s: f64,
    stuck_s: f64,
    without_ground_s: f64,
}

impl RecoveryWatch {
    /// Updates the timers with the state `s` after a tick of `dt` seconds in `ground`;
    /// returns why the car must be recovered, if it must. Allocation-free.
    pub fn check(&mut self, s: &Snapshot, ground: &dyn Ground, dt: f64) -> Option<RecoveryReason> {
        let finite = s.position.is_finite()
            && s.orientation.is_finite()
            && s.velocity_world.is_finite()
            && s.angular_velocity_world.is_finite();
        if !finite || s.position.z < FLOOR_Z_M {
            return Some(RecoveryReason::OutOfWorld);
        }
        let touching = s.body_contacts > 0 || s.wheels.iter().any(|w| w.contact);
        if touching || has_ground_below(ground, s.position) {
            self.without_ground_s = 0.0;
        } else {
            self.without_ground_s += dt;
            if self.without_ground_s >= OUT_OF_WORLD_S {
                return Some(RecoveryReason::OutOfWorld);
            }
        }
        let up_z = s.orientation.mul_vec3(DVec3::Z).z;
        if up_z < OVERTURNED_TILT_DEG.to_radians().cos()
            && s.speed_m_per_s < OVERTURNED_SPEED_M_PER_S
        {
            self.overturned_s += dt;
            if self.overturned_s >= OVERTURNED_S {
                return Some(RecoveryReason::UpsideDown);
            }
        } else {
            self.overturned_s = 0.0;
        }
        let c = &s.controls;
        let wants_to_go = c.throttle >= STUCK_THROTTLE
            && c.brake < HELD_PEDAL
            && c.clutch < HELD_PEDAL
            && c.handbrake < HELD_PEDAL;
        if wants_to_go && s.speed_m_per_s < STUCK_SPEED_M_PER_S {
            self.stuck_s += dt;
            if self.stuck_s >= STUCK_S {
                return Some(RecoveryReason::Stuck);
            }
        } else {
            self.stuck_s = 0.0;
        }
        None
    }

    /// Forgets the timers (the car was put somewhere new).
    pub fn clear(&mut self) {
        *self = Self::default();
    }
}

/// Whether there is ground below `position`, and none above it within 2 m (ground above
/// the centre of mass: the car is under the surface).
fn has_ground_below(ground: &dyn Ground, position: DVec3) -> bool {
    let above = 2.0;
    match ground.ray_cast(
        position + DVec3::Z * above,
        -DVec3::Z,
        above + GROUND_SEARCH_M,
    ) {
        Some(hit) => hit.point.z <= position.z,
        None => false,
    }
}

/// Where a recovered car goes: its ground point, the ground's normal there and the heading
/// (rad from +x).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// The ground point (world frame, m).
    pub point: DVec3,
    /// The ground's upward unit normal there.
    pub normal: DVec3,
    /// The heading (rad from +x).
    pub heading_rad: f64,
}

/// The safe place nearest `position` (see the module docs): on `line` when it has segments,
/// else where the car is, heading `heading_rad`. `None` when there is no ground there (or
/// `position` is not finite without a line): the caller falls back to the start.
/// Allocation-free.
pub fn safe_placement(
    ground: &dyn Ground,
    line: Option<&CentreLine>,
    position: DVec3,
    heading_rad: f64,
) -> Option<Placement> {
    let (xy_point, heading) = match line.filter(|l| l.segment_count() > 0) {
        Some(line) => {
            let projection = line.project(position)?;
            let sample = line.sample_at(projection.distance_m.clamp(0.0, line.length_m()))?;
            (sample.position, sample.tangent.y.atan2(sample.tangent.x))
        }
        None => (position, heading_rad),
    };
    if !(xy_point.is_finite() && heading.is_finite()) {
        return None;
    }
    let from = xy_point + DVec3::Z * PLACE_ABOVE_M;
    let hit = ground
        .ray_cast(from, -DVec3::Z, PLACE_ABOVE_M + GROUND_SEARCH_M)
        .or_else(|| {
            // A car far above or below the plane it left: look from high above.
            let top = DVec3::new(xy_point.x, xy_point.y, xy_point.z.max(0.0) + 1_000.0);
            ground.ray_cast(top, -DVec3::Z, 2_000.0 + xy_point.z.abs())
        })?;
    Some(Placement {
        point: hit.point,
        normal: hit.normal,
        heading_rad: heading,
    })
}

/// The heading (rad from +x) of the body's forward axis of `orientation` in the ground
/// plane; zero when it points straight up or down or is not finite.
pub fn heading_of(orientation: DQuat) -> f64 {
    let x = orientation.mul_vec3(DVec3::X);
    let heading = x.y.atan2(x.x);
    if heading.is_finite() && x.truncate().length_squared() > 1e-12 {
        heading
    } else {
        0.0
    }
}
