//! What the synthesiser hears from the physics: a [`SoundFrame`] per tick, built from the
//! vehicle's [`Snapshot`] by a [`FrameBuilder`] that knows the car (its tyres' peak slips,
//! its suspension travel, its engine's torque) and the previous tick (for the events: a gear
//! change, a kerb strike, a bump-stop hit, an impact).

use gripline_physics::ground::Surface;
use gripline_physics::tire::{Tire, TireInput, TireModel};
use gripline_physics::vehicle::{Snapshot, Vehicle};

/// One wheel as the tyre voices hear it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelSound {
    /// Combined slip relative to the tyre's peak: `sqrt((kappa / kappa_peak)² +
    /// (tan alpha / tan alpha_peak)²)`; 0 rolling freely, 1 at the peak of the force.
    pub slip_of_peak: f32,
    /// How far the wheel is locked under braking (0 rolling, 1 locked solid).
    pub lockup: f32,
    /// Sliding speed of the contact patch (m/s).
    pub sliding_m_per_s: f32,
    /// Tyre load over its static load (-).
    pub load_ratio: f32,
    /// Surface under the wheel.
    pub surface: Surface,
    /// The tyre touches the ground.
    pub contact: bool,
    /// Strength of a thump this tick (0 none .. 1 hard): a fast compression, a bump-stop hit or
    /// the strike of running onto a kerb.
    pub thump: f32,
}

/// The physics state the synthesiser follows, one per physics tick (plain `Copy` data).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(clippy::struct_excessive_bools)] // independent states of the car
pub struct SoundFrame {
    /// Simulated time (s).
    pub time_s: f64,
    /// Engine speed (rpm).
    pub engine_rpm: f32,
    /// Combustion strength (0..1): the throttle the engine burns, after idle control, rev
    /// limiter and shifts; 0 when it does not run.
    pub combustion: f32,
    /// Engine torque over its peak (-1..1): the load the exhaust note carries.
    pub engine_load: f32,
    /// The engine runs (has not stalled).
    pub running: bool,
    /// The starter motor turns the engine.
    pub cranking: bool,
    /// Gear engaged: -1 reverse, 0 neutral, 1.. forward.
    pub gear: i8,
    /// A gear was engaged or disengaged this tick (a shift's clunk).
    pub gear_changed: bool,
    /// Speed of the gearbox output shaft (rpm, magnitude).
    pub gearbox_output_rpm: f32,
    /// Torque through the driveline over its peak in first gear (0..1).
    pub driveline_load: f32,
    /// The clutch slips while carrying torque (0..1 of its capacity).
    pub clutch_slip: f32,
    /// An H-pattern engagement grinds.
    pub grind: bool,
    /// Speed of the car (m/s).
    pub speed_m_per_s: f32,
    /// Per wheel: front-left, front-right, rear-left, rear-right.
    pub wheels: [WheelSound; 4],
    /// Body points scraping the ground.
    pub body_contacts: u32,
    /// Strength of an impact of the body this tick (0 none .. 1 hard).
    pub impact: f32,
    /// The simulation is paused: the sound fades out.
    pub paused: bool,
}

/// Compression speed (m/s) above which a wheel thumps.
pub const THUMP_RATE_M_PER_S: f64 = 0.5;
/// Compression speed (m/s) of the hardest thump.
pub const HARD_THUMP_RATE_M_PER_S: f64 = 2.0;

/// Builds [`SoundFrame`]s for one car (see the module docs).
#[derive(Clone, Debug)]
pub struct FrameBuilder {
    peak_kappa: [f64; 2],
    peak_tan_alpha: [f64; 2],
    static_load_n: [f64; 2],
    travel_m: [f64; 2],
    peak_torque_nm: f64,
    peak_driveshaft_nm: f64,
    final_drive: f64,
    idle_rpm: f64,
    previous: Option<Previous>,
}

#[derive(Clone, Copy, Debug)]
struct Previous {
    time_s: f64,
    position: glam::DVec3,
    travel_m: [f64; 4],
    surface: [Surface; 4],
    gear: i8,
    body_contacts: u32,
    velocity_world: glam::DVec3,
}

impl FrameBuilder {
    /// A builder for `vehicle` (finds its tyres' peak slips at their static loads).
    pub fn new(vehicle: &Vehicle) -> Self {
        let p = vehicle.params();
        let static_load_n = [p.static_wheel_load_n(0), p.static_wheel_load_n(1)];
        let tires = vehicle.tires();
        let peaks = [
            peak_slips(&tires[0], static_load_n[0]),
            peak_slips(&tires[1], static_load_n[1]),
        ];
        let engine = &p.powertrain.engine;
        let peak_torque_nm = engine
            .torque_curve
            .iter()
            .map(|t| t.torque_nm)
            .fold(1.0, f64::max);
        let gearbox = &p.powertrain.gearbox;
        let first = gearbox.ratios.first().copied().unwrap_or(1.0).abs();
        Self {
            peak_kappa: [peaks[0].0, peaks[1].0],
            peak_tan_alpha: [peaks[0].1, peaks[1].1],
            static_load_n,
            travel_m: [p.front.suspension.travel_m, p.rear.suspension.travel_m],
            peak_torque_nm,
            peak_driveshaft_nm: (peak_torque_nm * first * gearbox.final_drive).max(1.0),
            final_drive: gearbox.final_drive.abs().max(1e-3),
            idle_rpm: engine.idle_rpm,
            previous: None,
        }
    }

    /// The tyres' peak slip ratio and slip-angle tangent, front and rear.
    pub fn peak_slips(&self) -> [(f64, f64); 2] {
        [
            (self.peak_kappa[0], self.peak_tan_alpha[0]),
            (self.peak_kappa[1], self.peak_tan_alpha[1]),
        ]
    }

    /// The frame of the state `s` after a tick of `step_s` seconds; `paused` when the
    /// simulation is paused.
    #[allow(clippy::cast_possible_truncation)]
    pub fn frame(&mut self, s: &Snapshot, step_s: f64, paused: bool) -> SoundFrame {
        let pt = &s.powertrain;
        let rpm = finite(pt.engine_rpm).max(0.0);
        let running = !pt.stalled;
        // A reset or a placement (time going back, a jump of the car) is not an event.
        let previous = self
            .previous
            .filter(|p| s.time_s > p.time_s && (s.position - p.position).length() < 5.0);
        let dt = if step_s.is_finite() && step_s > 0.0 {
            step_s
        } else {
            1e-3
        };
        let mut wheels = [WheelSound::default(); 4];
        for (i, (out, w)) in wheels.iter_mut().zip(&s.wheels).enumerate() {
            let axle = i / 2;
            let kappa = finite(w.slip_ratio) / self.peak_kappa[axle];
            let alpha = finite(finite(w.slip_angle_rad).tan()) / self.peak_tan_alpha[axle];
            let slip = if w.contact { kappa.hypot(alpha) } else { 0.0 };
            let lockup = if w.contact && w.slip_ratio < 0.0 {
                ((-finite(w.slip_ratio) - 0.3) / 0.6).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut thump = 0.0;
            if let Some(prev) = previous {
                let rate = (w.suspension_travel_m - prev.travel_m[i]) / dt;
                if rate.is_finite() && rate > THUMP_RATE_M_PER_S {
                    thump = ((rate - THUMP_RATE_M_PER_S)
                        / (HARD_THUMP_RATE_M_PER_S - THUMP_RATE_M_PER_S))
                        .min(1.0);
                }
                let stop = self.travel_m[axle];
                if w.suspension_travel_m > stop && prev.travel_m[i] <= stop {
                    thump = thump.max(0.6);
                }
                if w.contact && w.surface == Surface::Kerb && prev.surface[i] != Surface::Kerb {
                    thump = thump.max((s.speed_m_per_s / 40.0).clamp(0.15, 0.6));
                }
            }
            *out = WheelSound {
                slip_of_peak: finite(slip).min(10.0) as f32,
                lockup: lockup as f32,
                sliding_m_per_s: finite(w.slip_velocity_m_per_s).min(100.0) as f32,
                load_ratio: (finite(w.load_n) / self.static_load_n[axle]).clamp(0.0, 5.0) as f32,
                surface: w.surface,
                contact: w.contact,
                thump: thump as f32,
            };
        }
        let impact = match previous {
            Some(prev) if s.body_contacts > prev.body_contacts => {
                // The speed lost in the tick at first contact, with a floor for a touch.
                let lost = (prev.velocity_world - s.velocity_world).length();
                (finite(lost) / 2.0 + f64::from(s.body_contacts - prev.body_contacts) * 0.05)
                    .clamp(0.1, 1.0)
            }
            _ => 0.0,
        };
        let gear_changed = previous.is_some_and(|p| p.gear != pt.gear);
        let wheel_spin = drive_shaft_spin(s);
        let clutch_slip = if pt.clutch_state == gripline_physics::powertrain::ClutchState::Slipping
            && pt.clutch_capacity_nm > 0.0
        {
            (finite(pt.clutch_torque_nm).abs() / pt.clutch_capacity_nm).clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.previous = Some(Previous {
            time_s: s.time_s,
            position: s.position,
            travel_m: s.wheels.map(|w| w.suspension_travel_m),
            surface: s.wheels.map(|w| w.surface),
            gear: pt.gear,
            body_contacts: s.body_contacts,
            velocity_world: s.velocity_world,
        });
        SoundFrame {
            time_s: s.time_s,
            engine_rpm: rpm.min(30_000.0) as f32,
            combustion: if running {
                finite(pt.throttle).clamp(0.0, 1.0) as f32
            } else {
                0.0
            },
            engine_load: (finite(pt.engine_torque_nm) / self.peak_torque_nm).clamp(-1.0, 1.0)
                as f32,
            running,
            cranking: s.controls.starter && (!running || rpm < self.idle_rpm),
            gear: pt.gear,
            gear_changed,
            gearbox_output_rpm: (wheel_spin * self.final_drive * 60.0 / std::f64::consts::TAU)
                .min(30_000.0) as f32,
            driveline_load: (finite(pt.driveshaft_torque_nm).abs() / self.peak_driveshaft_nm)
                .min(1.0) as f32,
            clutch_slip: clutch_slip as f32,
            grind: pt.grind,
            speed_m_per_s: finite(s.speed_m_per_s).min(200.0) as f32,
            wheels,
            body_contacts: s.body_contacts,
            impact: impact as f32,
            paused,
        }
    }
}

/// Mean spin of the wheels (rad/s, magnitude): the differentials' inputs turn at the mean of
/// their wheels, so this times the final drive is the gearbox output speed for every layout.
fn drive_shaft_spin(s: &Snapshot) -> f64 {
    let (mut driven_sum, mut driven, mut all_sum) = (0.0, 0.0, 0.0);
    for (torque, w) in s.powertrain.wheel_drive_torque_nm.iter().zip(&s.wheels) {
        all_sum += w.spin_rad_per_s;
        if torque.abs() > 0.0 {
            driven_sum += w.spin_rad_per_s;
            driven += 1.0;
        }
    }
    let mean = if driven > 0.0 {
        driven_sum / driven
    } else {
        all_sum / 4.0
    };
    finite(mean).abs()
}

/// `x` when finite, else zero.
fn finite(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

/// Share of the peak force that marks a tyre's peak slip: where the force curve reaches its
/// plateau. Many tyres' curves are nearly flat around the peak (a 205/60 R15's lateral force
/// is within 2 % of its peak from about 6° to 12° of slip), so the arg-max alone would put
/// the peak anywhere on that plateau; the first slip within 2 % of the peak is where the
/// contact patch is essentially all sliding, which is what a driver hears.
pub const PEAK_FORCE_SHARE: f64 = 0.98;

/// The slip ratio and the tangent of the slip angle at which `tire` reaches its peak
/// longitudinal and lateral force at `load_n` ([`PEAK_FORCE_SHARE`] of the largest force of
/// a sweep at 20 m/s in steps of 0.0025).
pub fn peak_slips(tire: &Tire, load_n: f64) -> (f64, f64) {
    let base = TireInput::rolling(load_n.max(100.0), 20.0);
    let plateau = |f: &dyn Fn(f64) -> f64, top: f64| {
        let slips: Vec<f64> = (1..=(top / 0.0025) as usize)
            .map(|i| i as f64 * 0.0025)
            .collect();
        let forces: Vec<f64> = slips
            .iter()
            .map(|&x| {
                let v = f(x).abs();
                if v.is_finite() { v } else { 0.0 }
            })
            .collect();
        let peak = forces.iter().copied().fold(0.0, f64::max);
        slips
            .iter()
            .zip(&forces)
            .find(|(_, force)| **force >= PEAK_FORCE_SHARE * peak)
            .map_or(top, |(slip, _)| *slip)
    };
    let kappa = plateau(&|k| tire.evaluate(&base.with_kappa(k)).fx, 0.6);
    let alpha = plateau(&|a| tire.evaluate(&base.with_alpha(a)).fy, 0.5);
    // A tyre whose force never rises (no grip) has its "peak" at the smallest slip.
    (kappa.max(0.02), alpha.tan().max(0.02))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gripline_physics::vehicle::VehicleParams;

    fn vehicle() -> Vehicle {
        let tire = Tire::SimplifiedPacejka(
            gripline_physics::tire::simplified_pacejka::SimplifiedPacejka::default(),
        );
        Vehicle::new(VehicleParams::default(), [tire.clone(), tire]).unwrap()
    }

    fn rolling(v: &Vehicle) -> Snapshot {
        let mut s = *v.snapshot();
        for w in &mut s.wheels {
            w.contact = true;
            w.suspension_travel_m = 0.08;
        }
        s.speed_m_per_s = 20.0;
        s
    }

    #[test]
    fn thumps_come_from_fast_compression_the_bump_stop_and_kerb_strikes() {
        let v = vehicle();
        let mut b = FrameBuilder::new(&v);
        let mut s = rolling(&v);
        let tick = |b: &mut FrameBuilder, s: &mut Snapshot| {
            s.time_s += 0.001;
            b.frame(s, 0.001, false)
        };
        assert!(tick(&mut b, &mut s).wheels.iter().all(|w| w.thump == 0.0));
        assert!(tick(&mut b, &mut s).wheels.iter().all(|w| w.thump == 0.0));
        // 2 mm in a millisecond: 2 m/s of compression, the hardest thump.
        s.wheels[0].suspension_travel_m += 0.002;
        let f = tick(&mut b, &mut s);
        assert!((f.wheels[0].thump - 1.0).abs() < 1e-6 && f.wheels[1].thump == 0.0);
        // Onto a kerb at 20 m/s.
        s.wheels[2].surface = Surface::Kerb;
        let f = tick(&mut b, &mut s);
        assert!(f.wheels[2].thump > 0.4, "{}", f.wheels[2].thump);
        assert!(
            tick(&mut b, &mut s).wheels[2].thump == 0.0,
            "once per strike"
        );
        // Through the bump stop (slowly: the stop, not the speed).
        let stop = v.params().rear.suspension.travel_m;
        s.wheels[3].suspension_travel_m = stop - 0.0001;
        tick(&mut b, &mut s);
        s.wheels[3].suspension_travel_m = stop + 0.0002;
        assert!(tick(&mut b, &mut s).wheels[3].thump >= 0.6);
    }

    #[test]
    fn a_reset_is_not_an_event_but_a_body_hit_is() {
        let v = vehicle();
        let mut b = FrameBuilder::new(&v);
        let mut s = rolling(&v);
        s.time_s = 5.0;
        b.frame(&s, 0.001, false);
        // The session resets: time starts again, the suspension jumps.
        let mut reset = rolling(&v);
        reset.time_s = 0.001;
        reset.wheels[0].suspension_travel_m = 0.2;
        reset.powertrain.gear = 1;
        let f = b.frame(&reset, 0.001, false);
        assert!(f.wheels[0].thump == 0.0 && !f.gear_changed && f.impact == 0.0);
        // The body touches down, losing 3 m/s in the tick.
        let mut hit = reset;
        hit.time_s += 0.001;
        hit.body_contacts = 2;
        hit.velocity_world = reset.velocity_world - glam::DVec3::new(0.0, 0.0, 3.0);
        let f = b.frame(&hit, 0.001, false);
        assert!(f.impact > 0.9, "{}", f.impact);
    }
}
