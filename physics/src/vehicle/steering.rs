//! Steering: steering-wheel angle to road-wheel angles (ratio, lock, Ackermann), and the
//! steering-column torque that drives force feedback.
//!
//! # Signs
//!
//! - Angles are positive counter-clockwise seen from above: a positive steering-wheel angle
//!   (wheel turned left, as in [`crate::controls::Controls`]) gives positive road-wheel angles
//!   and a left turn.
//! - Column torque is positive when it turns the steering wheel counter-clockwise (left).
//!
//! # Column torque
//!
//! The road's moment about each front wheel's kingpin axis (taken as vertical, positive
//! turning the wheel left) is
//!
//! ```text
//! M_kp = Mz - t_m * Fy - s * r_s * Fx
//! ```
//!
//! with `Mz`, `Fy`, `Fx` in the wheel's ISO-W contact frame, `t_m` the mechanical trail (the
//! contact centre lies `t_m` behind the kingpin's ground point, so a lateral force `Fy` there
//! has the moment `-t_m Fy`), `r_s` the scrub radius and `s = +1` for the left wheel, `-1` for
//! the right (the contact centre lies `r_s` outboard of the kingpin). The column sees
//!
//! ```text
//! T_column = efficiency * (M_kp,left + M_kp,right) / ratio
//! ```
//!
//! by virtual work through the rack (`d(road angle) = d(wheel angle) / ratio`).
//! In a left turn the front tyres push left (`Fy > 0`) at negative slip angles with negative
//! `Mz`, so `T_column < 0`: it turns the wheel back to the right, i.e. it self-centres.
//! A kingpin-inclination (jacking) term is not modelled.

use super::params::SteeringParams;
use crate::tire::TireOutput;

/// Where the steering stands this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SteeringAngles {
    /// Steering-wheel angle after the lock (rad).
    pub steering_wheel_rad: f64,
    /// Road-wheel steer angles `[left, right]` (rad), without toe.
    pub road_wheels_rad: [f64; 2],
}

impl SteeringParams {
    /// Steering-wheel lock each side (rad).
    pub fn lock_rad(&self) -> f64 {
        self.lock_deg.to_radians()
    }

    /// The steering-wheel angle after the lock (rad).
    pub fn clamp_to_lock(&self, steering_wheel_rad: f64) -> f64 {
        let lock = self.lock_rad();
        steering_wheel_rad.clamp(-lock, lock)
    }

    /// The steering-wheel angle after the lock and the road-wheel angles it gives
    /// ([`SteeringParams::road_wheel_angles`]) for the driver's `steering_wheel_rad`, on a car
    /// of `wheelbase` and front `track` (m).
    pub fn angles(&self, steering_wheel_rad: f64, wheelbase: f64, track: f64) -> SteeringAngles {
        let steering_wheel = self.clamp_to_lock(steering_wheel_rad);
        SteeringAngles {
            steering_wheel_rad: steering_wheel,
            road_wheels_rad: self.road_wheel_angles(steering_wheel, wheelbase, track),
        }
    }

    /// Road-wheel steer angles `[left, right]` (rad) for a steering-wheel angle (rad, clamped
    /// to the lock), for a car of `wheelbase` and front `track` (m).
    ///
    /// The mean angle is `wheel / ratio`. Full Ackermann geometry steers the inner wheel to
    /// `atan(L / (R - t/2))` and the outer to `atan(L / (R + t/2))` about the turn centre on
    /// the rear axle line at `R = L / tan(mean)`; `ackermann` blends between parallel steer
    /// (0) and that geometry (1). Computed on the magnitude and signed afterwards, so left and
    /// right turns are exact mirror images.
    pub fn road_wheel_angles(
        &self,
        steering_wheel_rad: f64,
        wheelbase: f64,
        track: f64,
    ) -> [f64; 2] {
        let wheel = self.clamp_to_lock(steering_wheel_rad);
        let mean = wheel.abs() / self.ratio;
        if mean < 1e-12 {
            return [0.0, 0.0];
        }
        let radius = wheelbase / mean.tan();
        let inner_full = wheelbase.atan2(radius - 0.5 * track);
        let outer_full = wheelbase.atan2(radius + 0.5 * track);
        let inner = mean + self.ackermann * (inner_full - mean);
        let outer = mean + self.ackermann * (outer_full - mean);
        if wheel > 0.0 {
            // Left turn: the left wheel is on the inside.
            [inner, outer]
        } else {
            [-outer, -inner]
        }
    }

    /// Moment of the road about one front wheel's kingpin axis (N·m, positive turning the
    /// wheel left); `side` is `+1` for the left wheel, `-1` for the right.
    #[inline]
    pub fn kingpin_moment(&self, side: f64, fx: f64, fy: f64, mz: f64) -> f64 {
        mz - self.mechanical_trail_m * fy - side * self.scrub_radius_m * fx
    }

    /// Steering-column torque (N·m, positive turning the steering wheel left) from the front
    /// tyres' `[left, right]` forces and aligning moments in their contact frames.
    pub fn column_torque(&self, fx: [f64; 2], fy: [f64; 2], mz: [f64; 2]) -> f64 {
        let left = self.kingpin_moment(1.0, fx[0], fy[0], mz[0]);
        let right = self.kingpin_moment(-1.0, fx[1], fy[1], mz[1]);
        self.efficiency * (left + right) / self.ratio
    }

    /// [`SteeringParams::column_torque`] of the tyre forces of wheels `[FL, FR, RL, RR]` (the
    /// front two steer), zero when it is not finite.
    pub fn front_column_torque(&self, forces: &[TireOutput; 4]) -> f64 {
        let column = self.column_torque(
            [forces[0].fx, forces[1].fx],
            [forces[0].fy, forces[1].fy],
            [forces[0].mz, forces[1].mz],
        );
        if column.is_finite() { column } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use crate::vehicle::params::VehicleParams;

    #[test]
    fn ratio_lock_and_ackermann() {
        let p = VehicleParams::default();
        let s = &p.steering;
        let (l, t) = (p.chassis.wheelbase_m, p.front.track_m);
        // Parallel steer at 0 % Ackermann: both wheels at wheel / ratio.
        let mut parallel = s.clone();
        parallel.ackermann = 0.0;
        let [a, b] = parallel.road_wheel_angles(1.0, l, t);
        assert!((a - 1.0 / 16.1).abs() < 1e-15 && (b - 1.0 / 16.1).abs() < 1e-15);
        // Lock clamps: 450 deg of wheel.
        let [a, _] = parallel.road_wheel_angles(100.0, l, t);
        assert!((a - 450f64.to_radians() / 16.1).abs() < 1e-12);
        // Full Ackermann: both wheels' axes meet on the rear axle line.
        let mut full = s.clone();
        full.ackermann = 1.0;
        let [inner, outer] = full.road_wheel_angles(3.0, l, t);
        assert!(inner > outer);
        let r_inner = l / inner.tan() + 0.5 * t;
        let r_outer = l / outer.tan() - 0.5 * t;
        assert!((r_inner - r_outer).abs() < 1e-9, "{r_inner} vs {r_outer}");
        // Mirror symmetry is exact.
        let [li, ri] = s.road_wheel_angles(2.0, l, t);
        let [lo, ro] = s.road_wheel_angles(-2.0, l, t);
        assert_eq!(li.to_bits(), (-ro).to_bits());
        assert_eq!(ri.to_bits(), (-lo).to_bits());
    }

    #[test]
    fn column_torque_self_centres_in_a_left_turn() {
        let s = VehicleParams::default().steering;
        // Left turn: lateral forces to the left, aligning moments negative (slip angle < 0).
        let t = s.column_torque([0.0, 0.0], [3000.0, 2500.0], [-60.0, -50.0]);
        assert!(t < 0.0);
        let expected = 0.9 * (-110.0 - 0.03 * 5500.0) / 16.1;
        assert!((t - expected).abs() < 1e-12);
        // Equal braking forces: the scrub-radius moments cancel.
        let braking = s.column_torque([-2000.0, -2000.0], [0.0, 0.0], [0.0, 0.0]);
        assert!(braking.abs() < 1e-12);
    }
}
