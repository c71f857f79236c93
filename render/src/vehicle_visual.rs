//! The car's dimensions as the renderer needs them, derived from [`VehicleParams`].
//!
//! Body frame (ISO 8855): x forward, y left, z up, origin at the CG. The ground under the
//! car at static ride height is at `z = -cg_height_m`.

use glam::DVec3;
use gripline_physics::vehicle::VehicleParams;

/// The generated body's shape, chosen from the car's dimensions by [`BodyStyle::of`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyStyle {
    /// Low two-seater: long bonnet, cabin set back, fastback to a ducktail.
    Coupe,
    /// Short car with the roof carried to a near-vertical tailgate.
    Hatchback,
    /// Three boxes: bonnet, cabin, boot.
    Saloon,
    /// A raised saloon with a rear wing, mud flaps, a roof scoop, a lamp pod and stripes.
    Rally,
}

impl BodyStyle {
    /// The style for a car of these dimensions: ground clearance of 0.18 m or more is a rally
    /// car (road cars sit 0.10-0.16 m up); a height of 1.30 m or less a coupe (saloons and
    /// hatchbacks stand 1.40-1.50 m); a length of 4.30 m or less a hatchback (C-segment
    /// hatchbacks are 4.0-4.3 m, saloons 4.4-4.9 m); else a saloon.
    pub fn of(length_m: f64, height_m: f64, ground_clearance_m: f64) -> Self {
        if ground_clearance_m >= 0.18 {
            Self::Rally
        } else if height_m <= 1.30 {
            Self::Coupe
        } else if length_m <= 4.30 {
            Self::Hatchback
        } else {
            Self::Saloon
        }
    }

    /// The paint the generated car gets (linear RGB): red coupe, blue hatchback, silver
    /// saloon, white rally car (with blue stripes).
    pub fn paint_rgb(self) -> [f32; 3] {
        match self {
            Self::Coupe => [0.50, 0.025, 0.02],
            Self::Hatchback => [0.03, 0.09, 0.32],
            Self::Saloon => [0.32, 0.33, 0.35],
            Self::Rally => [0.72, 0.72, 0.70],
        }
    }
}

/// Sizes and colours of the generated car model.
#[derive(Clone, Debug, PartialEq)]
pub struct VehicleVisual {
    /// Overall length (m).
    pub length_m: f64,
    /// Overall width (m).
    pub width_m: f64,
    /// Overall height at static ride height (m).
    pub height_m: f64,
    /// Underside above the ground (m).
    pub ground_clearance_m: f64,
    /// Body ahead of the front axle (m).
    pub front_overhang_m: f64,
    /// Axle distance (m).
    pub wheelbase_m: f64,
    /// CG to front axle, along x (m).
    pub cg_to_front_axle_m: f64,
    /// CG height above the ground (m).
    pub cg_height_m: f64,
    /// Front and rear track (m).
    pub track_m: [f64; 2],
    /// Front and rear wheel radius (m).
    pub wheel_radius_m: [f64; 2],
    /// Front and rear tyre width (m), estimated from the wheel radius.
    pub tyre_width_m: [f64; 2],
    /// Paint colour, linear RGB 0..1.
    pub paint_rgb: [f32; 3],
    /// The generated body's shape.
    pub style: BodyStyle,
    /// Full scale of the rev counter (rpm): the redline plus a tenth, up to a whole thousand.
    pub rev_dial_max_rpm: f64,
    /// Full scale of the speedometer (m/s): 320 km/h in a coupe, 240 km/h in the others.
    pub speed_dial_max_m_per_s: f64,
    /// The driver's eyes (m, body frame) where a car model gives them; `None`: the
    /// generated car's seat ([`VehicleVisual::driver_eye_body`]).
    pub driver_eye_m: Option<DVec3>,
}

impl VehicleVisual {
    /// Dimensions from the vehicle parameters, with the paint of its [`BodyStyle`]. Non-finite or non-positive
    /// sizes are replaced by those of a typical car, so a broken file never breaks the picture.
    pub fn from_params(params: &VehicleParams) -> Self {
        let pos = |v: f64, fallback: f64| {
            if v.is_finite() && v > 0.0 {
                v
            } else {
                fallback
            }
        };
        let wheelbase_m = pos(params.chassis.wheelbase_m, 2.6);
        let fwf = params.chassis.front_weight_fraction;
        let fwf = if fwf.is_finite() {
            fwf.clamp(0.05, 0.95)
        } else {
            0.5
        };
        let radius = [
            pos(params.front.wheel.radius_m, 0.31),
            pos(params.rear.wheel.radius_m, 0.31),
        ];
        let length_m = pos(params.body.length_m, 4.4).max(wheelbase_m + 0.2);
        let front_overhang_m = pos(params.body.front_overhang_m, 0.9).min(length_m - wheelbase_m);
        let height_m = pos(params.body.height_m, 1.35);
        let ground_clearance_m = pos(params.body.ground_clearance_m, 0.13).min(0.5 * height_m);
        let style = BodyStyle::of(length_m, height_m, ground_clearance_m);
        Self {
            length_m,
            width_m: pos(params.body.width_m, 1.8),
            height_m,
            ground_clearance_m,
            front_overhang_m,
            wheelbase_m,
            cg_to_front_axle_m: wheelbase_m * (1.0 - fwf),
            cg_height_m: pos(params.chassis.cg_height_m, 0.5),
            track_m: [
                pos(params.front.track_m, 1.55),
                pos(params.rear.track_m, 1.55),
            ],
            wheel_radius_m: radius,
            tyre_width_m: radius.map(|r| (0.75 * r).clamp(0.15, 0.35)),
            paint_rgb: style.paint_rgb(),
            style,
            rev_dial_max_rpm: (1.1 * pos(params.powertrain.engine.redline_rpm, 6000.0) / 1000.0)
                .ceil()
                * 1000.0,
            speed_dial_max_m_per_s: if style == BodyStyle::Coupe {
                320.0
            } else {
                240.0
            } / 3.6,
            driver_eye_m: None,
        }
    }

    /// The same car in another paint (linear RGB 0..1, clamped).
    #[must_use]
    pub fn with_paint(mut self, rgb: [f32; 3]) -> Self {
        self.paint_rgb = rgb.map(|c| {
            if c.is_finite() {
                c.clamp(0.0, 1.0)
            } else {
                0.5
            }
        });
        self
    }

    /// x of the front (0) or rear (1) axle in the body frame (m).
    pub fn axle_x_m(&self, axle: usize) -> f64 {
        if axle == 0 {
            self.cg_to_front_axle_m
        } else {
            self.cg_to_front_axle_m - self.wheelbase_m
        }
    }

    /// x of the nose (m, body frame).
    pub fn nose_x_m(&self) -> f64 {
        self.cg_to_front_axle_m + self.front_overhang_m
    }

    /// x of the tail (m, body frame).
    pub fn tail_x_m(&self) -> f64 {
        self.nose_x_m() - self.length_m
    }

    /// Where the cabin is along x (m, body frame): cabin rear, cabin front (the windscreen's
    /// foot), roof rear, roof front. A coupe's cabin sits back behind a long bonnet under a
    /// short roof with a long fastback; a hatchback carries its roof almost to the tail; a
    /// saloon (and the rally car built on one) has a boot behind the rear screen.
    pub fn cabin_stations_m(&self) -> [f64; 4] {
        let len = self.length_m;
        let (rear, front, roof_rear, roof_front) = match self.style {
            BodyStyle::Coupe => (0.10, 0.40, 0.42, 0.36),
            BodyStyle::Hatchback => (0.035, 0.24, 0.07, 0.42),
            BodyStyle::Saloon | BodyStyle::Rally => (0.2, 0.28, 0.22, 0.42),
        };
        let cabin_rear = self.tail_x_m() + rear * len;
        let cabin_front = self.axle_x_m(0) - front * self.wheelbase_m;
        let cabin_len = cabin_front - cabin_rear;
        [
            cabin_rear,
            cabin_front,
            cabin_rear + roof_rear * cabin_len,
            cabin_front - roof_front * cabin_len,
        ]
    }

    /// z of the ground under the car at static ride height (m, body frame).
    pub fn ground_z_m(&self) -> f64 {
        -self.cg_height_m
    }

    /// Centre of wheel `index` (FL, FR, RL, RR) in the body frame at static ride height (m).
    pub fn static_wheel_centre_body(&self, index: usize) -> DVec3 {
        let axle = usize::from(index >= 2);
        let side = if index.is_multiple_of(2) { 1.0 } else { -1.0 };
        DVec3::new(
            self.axle_x_m(axle),
            side * 0.5 * self.track_m[axle],
            self.ground_z_m() + self.wheel_radius_m[axle],
        )
    }

    /// The same car with the driver's eyes at `eye` (m, body frame; a non-finite point is
    /// ignored).
    #[must_use]
    pub fn with_driver_eye(mut self, eye: Option<DVec3>) -> Self {
        self.driver_eye_m = eye.filter(|e| e.is_finite());
        self
    }

    /// Where the driver's eyes are (m, body frame): where a model puts them
    /// ([`VehicleVisual::with_driver_eye`]), else on the left seat, behind the windscreen.
    pub fn driver_eye_body(&self) -> DVec3 {
        if let Some(eye) = self.driver_eye_m {
            return eye;
        }
        // About 0.73 m behind the windscreen's foot (the generic cabin's 0.24 wheelbases
        // plus 0.1 m for a 2.6 m wheelbase).
        DVec3::new(
            self.cabin_stations_m()[1] - 0.73,
            0.2 * self.width_m,
            self.ground_z_m() + self.height_m - 0.2,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> VehicleParams {
        VehicleParams::default()
    }

    #[test]
    fn geometry_follows_the_parameters() {
        let p = params();
        let v = VehicleVisual::from_params(&p);
        assert!((v.axle_x_m(0) - v.axle_x_m(1) - p.chassis.wheelbase_m).abs() < 1e-12);
        assert!((v.nose_x_m() - v.tail_x_m() - p.body.length_m).abs() < 1e-12);
        let fl = v.static_wheel_centre_body(0);
        let rr = v.static_wheel_centre_body(3);
        assert!(fl.y > 0.0 && rr.y < 0.0 && fl.x > rr.x);
        assert!((fl.z - (p.front.wheel.radius_m - p.chassis.cg_height_m)).abs() < 1e-12);
        let eye = v.driver_eye_body();
        assert!(eye.x < v.axle_x_m(0) && eye.x > v.axle_x_m(1) && eye.y > 0.0);
    }

    /// The shipped cars' dimensions (their vehicle files) give their styles.
    #[test]
    fn shipped_cars_get_their_styles() {
        assert_eq!(BodyStyle::of(4.565, 1.212, 0.12), BodyStyle::Coupe); // Corvette C5
        assert_eq!(BodyStyle::of(4.15, 1.44, 0.14), BodyStyle::Hatchback); // hatchback-fwd
        assert_eq!(BodyStyle::of(4.5, 1.45, 0.2), BodyStyle::Rally); // rally-awd
        assert_eq!(BodyStyle::of(4.8, 1.45, 0.14), BodyStyle::Saloon);
    }

    #[test]
    fn broken_sizes_fall_back() {
        let mut p = params();
        p.body.length_m = f64::NAN;
        p.chassis.wheelbase_m = -1.0;
        p.front.wheel.radius_m = 0.0;
        let v = VehicleVisual::from_params(&p);
        assert!(v.length_m.is_finite() && v.wheelbase_m > 0.0 && v.wheel_radius_m[0] > 0.0);
        let v = v.with_paint([f32::NAN, 2.0, -1.0]);
        assert!(
            v.paint_rgb
                .iter()
                .zip([0.5, 1.0, 0.0])
                .all(|(a, b)| (a - b).abs() < 1e-6)
        );
    }
}
