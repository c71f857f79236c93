//! How the car moves, as the automatic gearbox senses it: the road speed, the lateral
//! acceleration and how far the tyres slide. A driver's automatic reads the same from its
//! output-shaft speed sensor and the stability control's yaw and lateral sensors; the shift
//! logic ([`super::shift_logic`]) uses them to hold a gear through a corner and to keep
//! first gear for pulling away.

/// The vehicle's motion for one powertrain step (plain data, SI units). The vehicle fills it
/// from its last tick; a powertrain on its own (a rig) fills what it knows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VehicleMotion {
    /// Speed along the vehicle's x axis (m/s), negative backing up.
    pub forward_speed_m_s: f64,
    /// Lateral acceleration felt in the body (m/s², ISO 8855 y, positive to the left): the
    /// specific force along y.
    pub lateral_accel_m_s2: f64,
    /// Largest slip angle of the four tyres (rad, magnitude).
    pub max_slip_angle_rad: f64,
}

impl VehicleMotion {
    /// Straight-line motion at `forward_speed_m_s`, without lateral load or slip.
    pub fn straight(forward_speed_m_s: f64) -> Self {
        Self {
            forward_speed_m_s,
            ..Self::default()
        }
    }

    /// The same motion with every non-finite figure set to zero, so that one bad tick of the
    /// vehicle cannot poison the shift logic's filters.
    #[must_use]
    pub fn sanitized(&self) -> Self {
        let f = |x: f64| if x.is_finite() { x } else { 0.0 };
        Self {
            forward_speed_m_s: f(self.forward_speed_m_s),
            lateral_accel_m_s2: f(self.lateral_accel_m_s2),
            max_slip_angle_rad: f(self.max_slip_angle_rad).abs(),
        }
    }
}
