//! The test procedures of the shipped scenarios, each as a proving ground runs it, and the
//! metrics each reports.

use anyhow::{Context, Result, bail};
use glam::{DVec2, DVec3};
use gripline_formats::scenario_file::{
    BrakingTest, CoastdownTest, LaneChangeTest, LapsTest, LaunchTest, ScriptTest, SkidpadTest,
    StepSteerTest, TopSpeedTest,
};
use gripline_physics::controls::Controls;
use gripline_physics::driver::{DriverModel, Path, SpeedControlGains, SpeedController};
use gripline_physics::powertrain::GearboxMode;
use gripline_physics::track::ReferenceGeometry;
use serde_json::{Map, Value, json};

use super::line_keeper::LineKeeper;
use super::metrics::{self, FOOT_M, G, KMH, MPH, QUARTER_MILE_M, StraightSample, steady_top_speed};
use super::run::Run;
use super::steady_state_gradients::SteadyStateGradients;
use crate::session::AutopilotLimits;

/// Named metrics of a run, in the order they were measured.
pub type Metrics = Map<String, Value>;

fn put(metrics: &mut Metrics, name: &str, value: impl Into<Value>) {
    metrics.insert(name.to_owned(), value.into());
}

fn put_opt(metrics: &mut Metrics, name: &str, value: Option<f64>) {
    metrics.insert(name.to_owned(), value.map_or(Value::Null, |v| json!(v)));
}

/// Lets the car settle on its suspension, held by the brakes, for `seconds`.
fn settle(sim: &mut Run, seconds: f64) -> Result<()> {
    let hold = Controls {
        brake: 1.0,
        ..Controls::default()
    };
    for _ in 0..sim.ticks_in(seconds) {
        sim.step(&hold)?;
    }
    Ok(())
}

/// A straight-line run from the world's straight start: the car placed and settled, the
/// direction of travel, where and when the run starts, and a keeper for the line.
struct StraightRun {
    direction: DVec2,
    origin: DVec2,
    t0: f64,
    keeper: LineKeeper,
}

impl StraightRun {
    /// Places the car at the straight's start in `mode` and lets it settle for `settle_s`.
    fn start(sim: &mut Run, mode: GearboxMode, settle_s: f64) -> Result<Self> {
        let (start, heading) = sim.world().straight_start()?;
        sim.place(start, heading, mode)?;
        settle(sim, settle_s)?;
        let origin = sim.snapshot().position.truncate();
        Ok(Self {
            direction: DVec2::new(heading.cos(), heading.sin()),
            origin,
            t0: sim.snapshot().time_s,
            // Far enough for any run on the endless plane; a track ends sooner anyway.
            keeper: LineKeeper::straight(origin, heading, 1.0e5)?,
        })
    }

    /// The car's progress since the start, along the line.
    fn sample(&self, sim: &Run) -> StraightSample {
        let s = sim.snapshot();
        StraightSample {
            t: s.time_s - self.t0,
            distance: (s.position.truncate() - self.origin).dot(self.direction),
            speed: s.velocity_body.x,
        }
    }

    /// One tick with `pedals` (their steering replaced by the line keeper's), and the progress
    /// after it.
    fn step(&mut self, sim: &mut Run, pedals: Controls) -> Result<StraightSample> {
        let (steer, _) = self.keeper.steer(sim);
        sim.step(&Controls {
            steering_wheel_rad: steer,
            ..pedals
        })?;
        Ok(self.sample(sim))
    }
}

/// Only the throttle, floored.
const FULL_THROTTLE: Controls = Controls {
    steering_wheel_rad: 0.0,
    throttle: 1.0,
    brake: 0.0,
    clutch: 0.0,
    handbrake: 0.0,
    shift_up: false,
    shift_down: false,
    h_gear: None,
    starter: false,
};

/// Standing start at full throttle, shifts by the automatic gearbox near the redline.
pub fn launch(sim: &mut Run, test: &LaunchTest) -> Result<Metrics> {
    let mut run = StraightRun::start(sim, GearboxMode::Automatic, 1.0)?;
    let mut samples = vec![run.sample(sim)];
    while samples
        .last()
        .is_some_and(|s| s.t < test.max_duration_s && s.distance < QUARTER_MILE_M + 20.0)
    {
        samples.push(run.step(sim, FULL_THROTTLE)?);
    }
    let mut m = Metrics::new();
    put_opt(
        &mut m,
        "t_0_60mph_s",
        metrics::time_to_speed(&samples, 60.0 * MPH),
    );
    put_opt(
        &mut m,
        "t_0_100kmh_s",
        metrics::time_to_speed(&samples, 100.0 * KMH),
    );
    let quarter = metrics::time_and_speed_at_distance(&samples, QUARTER_MILE_M);
    put_opt(&mut m, "quarter_mile_s", quarter.map(|q| q.0));
    put_opt(&mut m, "quarter_mile_speed_kmh", quarter.map(|q| q.1 / KMH));
    put_opt(&mut m, "quarter_mile_speed_mph", quarter.map(|q| q.1 / MPH));
    Ok(m)
}

/// One full stop from `speed` m/s with the brake pedal floored; returns the distance (m).
fn stop(sim: &mut Run, speed: f64, abs: bool) -> Result<f64> {
    let mut aids = sim.vehicle().params().aids.clone();
    aids.abs_enabled = abs;
    sim.set_aids(aids)?;
    let mut run = StraightRun::start(sim, GearboxMode::Automatic, 0.5)?;
    sim.set_forward_speed(speed);
    let mut samples = vec![StraightSample {
        t: 0.0,
        distance: 0.0,
        speed,
    }];
    let full_brake = Controls {
        brake: 1.0,
        ..Controls::default()
    };
    while samples.last().is_some_and(|s| s.speed > 0.01 && s.t < 30.0) {
        samples.push(run.step(sim, full_brake)?);
    }
    metrics::stopping_distance(&samples).context("the car did not stop within 30 s")
}

/// Full braking from the test speed, with ABS and without.
pub fn braking(sim: &mut Run, test: &BrakingTest) -> Result<Metrics> {
    let speed = test.speed_kmh * KMH;
    let with_abs = stop(sim, speed, true)?;
    let without = stop(sim, speed, false)?;
    let mut m = Metrics::new();
    put(&mut m, "stop_distance_60_0mph_m", with_abs);
    put(&mut m, "stop_distance_60_0mph_ft", with_abs / FOOT_M);
    put(&mut m, "stop_distance_60_0mph_no_abs_m", without);
    Ok(m)
}

/// Full throttle through the gears, then held in top gear until the speed settles.
pub fn top_speed(sim: &mut Run, test: &TopSpeedTest) -> Result<Metrics> {
    let mut run = StraightRun::start(sim, GearboxMode::Automatic, 0.5)?;
    let mut samples = vec![run.sample(sim)];
    let settle_m_s = test.settle_kmh * KMH;
    let mut top = None;
    // The speed only counts as settled in one gear: around an upshift it briefly stalls.
    let mut gear = sim.snapshot().powertrain.gear;
    let mut gear_since = 0.0;
    let top_gear = sim.vehicle().params().powertrain.gearbox.top_gear();
    while let Some(&last) = samples.last() {
        if last.t >= test.max_duration_s {
            break;
        }
        samples.push(run.step(sim, FULL_THROTTLE)?);
        let now_gear = sim.snapshot().powertrain.gear;
        if now_gear != gear {
            gear = now_gear;
            gear_since = last.t;
            // Top speed is measured in top gear, held there as a driver would hold it: the
            // automatic would drop back to the gear below for its power and hunt between them.
            if gear == top_gear {
                sim.set_powertrain_mode(GearboxMode::Sequential);
            }
        }
        if sim.ticks.is_multiple_of(1000) && last.t > 20.0 && last.t - gear_since > 10.0 {
            // Judge on the last 10 s only: the trace is long.
            let from = samples.len().saturating_sub(10_001);
            top = steady_top_speed(&samples[from..], 5.0, settle_m_s);
            if top.is_some() {
                break;
            }
        }
    }
    let mut m = Metrics::new();
    put_opt(&mut m, "top_speed_kmh", top.map(|v| v / KMH));
    put_opt(&mut m, "top_speed_mph", top.map(|v| v / MPH));
    put(&mut m, "top_speed_gear", sim.snapshot().powertrain.gear);
    put(
        &mut m,
        "top_speed_rpm",
        sim.snapshot().powertrain.engine_rpm,
    );
    put_opt(
        &mut m,
        "time_to_top_speed_s",
        top.and(samples.last().map(|s| s.t)),
    );
    Ok(m)
}

/// A circle reference of the track.
fn circle(sim: &Run, name: &str) -> Result<(DVec2, f64)> {
    match sim.world().reference(name)? {
        ReferenceGeometry::Circle { centre, radius_m } => Ok((centre.truncate(), *radius_m)),
        _ => bail!("track reference '{name}' is not a circle"),
    }
}

/// Steady state on the circle at a slowly rising speed; the highest lateral acceleration
/// held (averaged over 1 s) while the car stays on the circle.
pub fn skidpad(sim: &mut Run, test: &SkidpadTest) -> Result<Metrics> {
    let (centre, radius) = circle(sim, &test.circle)?;
    // Counter-clockwise from the bottom of the circle: a left-hand turn.
    let start = centre + DVec2::new(0.0, -radius);
    sim.place(start, 0.0, GearboxMode::Automatic)?;
    settle(sim, 0.5)?;
    let speed0 = test.start_speed_kmh * KMH;
    sim.set_forward_speed(speed0);
    let path = Path::circle(centre, radius, 720, -std::f64::consts::FRAC_PI_2, true)?;
    let mut keeper = LineKeeper::new(path);
    let mut speed_control = SpeedController::new(SpeedControlGains::default());
    let ramp = test.ramp_kmh_per_s * KMH;
    let window = sim.ticks_in(1.0);
    let (mut sum, mut count, mut best) = (0.0, 0u64, 0.0f64);
    let mut off_for = 0u64;
    let mut gradients = SteadyStateGradients::default();
    let t0 = sim.snapshot().time_s;
    let limit_s = 600.0;
    loop {
        let t = sim.snapshot().time_s - t0;
        if t > limit_s {
            break;
        }
        let (steer, offset) = keeper.steer(sim);
        let pedals = speed_control.update(speed0 + ramp * t, sim.forward_speed(), sim.step_s());
        sim.step(&Controls {
            steering_wheel_rad: steer,
            throttle: pedals.throttle,
            brake: pedals.brake,
            ..Controls::default()
        })?;
        let on_circle = offset.abs() <= test.max_offset_m;
        if on_circle {
            off_for = 0;
            gradients.add(sim.snapshot());
            sum += sim.snapshot().specific_force_body.y;
            count += 1;
            if count == window {
                best = best.max((sum / count as f64).abs() / G);
                sum = 0.0;
                count = 0;
            }
        } else {
            off_for += 1;
            sum = 0.0;
            count = 0;
            // Pushed wide for a whole second: the car is past its limit.
            if off_for > window {
                break;
            }
        }
    }
    let mut m = Metrics::new();
    put(&mut m, "skidpad_max_lat_g", best);
    put(&mut m, "skidpad_radius_m", radius);
    put_opt(
        &mut m,
        "understeer_gradient_deg_per_g",
        gradients.understeer_deg_per_g(),
    );
    put_opt(
        &mut m,
        "roll_gradient_deg_per_g",
        gradients.roll_deg_per_g(),
    );
    Ok(m)
}

/// The ISO 3888-1 double lane change at a set speed.
pub fn lane_change(sim: &mut Run, test: &LaneChangeTest) -> Result<Metrics> {
    let course = match sim.world().reference(&test.course)? {
        ReferenceGeometry::LaneChange(course) => course.clone(),
        _ => bail!(
            "track reference '{}' is not a lane-change course",
            test.course
        ),
    };
    let width = sim.vehicle().params().body.width_m;
    let length = sim.vehicle().params().body.length_m;
    let lanes: Vec<_> = course.lanes(width).collect();
    let (forward, left) = course.axes();
    let to_world = |station: f64, lateral: f64| course.world_xy(station, lateral).truncate();
    // The line: lane centres, joined by half-cosine transitions, with run-in and run-out.
    // The preview is shorter than on open road: the gates are 15 to 25 m long.
    let centre_at = |station: f64| -> f64 {
        let mut previous: Option<&gripline_physics::track::Lane> = None;
        for lane in &lanes {
            if station < lane.start_m {
                return match previous {
                    None => lane.centre_m(),
                    Some(p) => {
                        let u = (station - p.end_m) / (lane.start_m - p.end_m);
                        let blend = 0.5 - 0.5 * (std::f64::consts::PI * u.clamp(0.0, 1.0)).cos();
                        p.centre_m() + (lane.centre_m() - p.centre_m()) * blend
                    }
                };
            }
            if station <= lane.end_m {
                return lane.centre_m();
            }
            previous = Some(lane);
        }
        previous.map_or(0.0, gripline_physics::track::Lane::centre_m)
    };
    let end = course.length_m();
    // One point per metre from 80 m before the course to 60 m after it.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let count = u32::try_from((end + 140.0).round().max(0.0) as u64).unwrap_or(1000);
    let points: Vec<DVec2> = (0..=count)
        .map(|i| -80.0 + f64::from(i))
        .map(|s| to_world(s, centre_at(s)))
        .collect();
    let mut keeper = LineKeeper::new(Path::new(&points, false)?).with_preview(0.45);
    let start = to_world(-60.0, centre_at(0.0));
    let heading = forward.y.atan2(forward.x);
    sim.place(start, heading, GearboxMode::Automatic)?;
    settle(sim, 0.5)?;
    let speed = test.speed_kmh * KMH;
    sim.set_forward_speed(speed);
    let mut speed_control = SpeedController::new(SpeedControlGains::default());
    let origin = course.world_xy(0.0, 0.0);
    let mut violated = vec![false; lanes.len()];
    let mut peak_yaw = 0.0f64;
    let mut spun = false;
    let t0 = sim.snapshot().time_s;
    loop {
        let s = sim.snapshot();
        let rel = s.position - origin;
        let station = rel.dot(forward);
        if station > end + 20.0 || s.time_s - t0 > 30.0 {
            break;
        }
        let (steer, _) = keeper.steer(sim);
        // Speed held up to the entry gate, then the throttle released (ISO 3888-1).
        let throttle = if station < 0.0 {
            speed_control
                .update(speed, sim.forward_speed(), sim.step_s())
                .throttle
        } else {
            0.0
        };
        sim.step(&Controls {
            steering_wheel_rad: steer,
            throttle,
            ..Controls::default()
        })?;
        let s = sim.snapshot();
        if (0.0..=end).contains(&station) {
            peak_yaw = peak_yaw.max(s.angular_velocity_body.z.abs());
            let heading_error = (sim.yaw() - heading).sin().abs();
            spun |= heading_error > 0.7;
            // The body's footprint against each lane's cones.
            let x = s
                .orientation
                .mul_vec3(DVec3::X)
                .truncate()
                .normalize_or_zero();
            let y = DVec2::new(-x.y, x.x);
            let centre = s.position.truncate();
            for (sx, sy) in [(0.5, 0.5), (0.5, -0.5), (-0.5, 0.5), (-0.5, -0.5)] {
                let corner = centre + x * (sx * length) + y * (sy * width);
                let rel = (corner - origin.truncate()).extend(0.0);
                let (st, lat) = (rel.dot(forward), rel.dot(left));
                for (i, lane) in lanes.iter().enumerate() {
                    if (lane.start_m..=lane.end_m).contains(&st)
                        && !(lane.right_m..=lane.left_m).contains(&lat)
                    {
                        violated[i] = true;
                    }
                }
            }
        }
    }
    let cones_hit = violated.iter().filter(|v| **v).count();
    let mut m = Metrics::new();
    put(&mut m, "passed", cones_hit == 0 && !spun);
    put(&mut m, "cones_hit", cones_hit);
    put(&mut m, "peak_yaw_rate_deg_s", peak_yaw.to_degrees());
    put(&mut m, "entry_speed_kmh", test.speed_kmh);
    Ok(m)
}

/// Step steer at constant throttle (ISO 7401).
pub fn step_steer(sim: &mut Run, test: &StepSteerTest) -> Result<Metrics> {
    let mut keeper = StraightRun::start(sim, GearboxMode::Automatic, 0.5)?.keeper;
    let speed = test.speed_kmh * KMH;
    sim.set_forward_speed(speed);
    let mut speed_control = SpeedController::new(SpeedControlGains::default());
    let mut throttle = 0.0;
    for _ in 0..sim.ticks_in(3.0) {
        let (steer, _) = keeper.steer(sim);
        throttle = speed_control
            .update(speed, sim.forward_speed(), sim.step_s())
            .throttle;
        sim.step(&Controls {
            steering_wheel_rad: steer,
            throttle,
            ..Controls::default()
        })?;
    }
    let target = test.steering_wheel_deg.to_radians();
    let t_step = sim.snapshot().time_s + 0.5;
    let mut samples = Vec::new();
    for _ in 0..sim.ticks_in(5.0) {
        let t = sim.snapshot().time_s;
        let u = if test.ramp_s > 0.0 {
            ((t - t_step) / test.ramp_s).clamp(0.0, 1.0)
        } else if t >= t_step {
            1.0
        } else {
            0.0
        };
        sim.step(&Controls {
            steering_wheel_rad: target * u,
            throttle,
            ..Controls::default()
        })?;
        let s = sim.snapshot();
        samples.push((s.time_s, target * u, s.angular_velocity_body.z));
    }
    let response = metrics::step_response(&samples, 1.0);
    let s = sim.snapshot();
    let mut m = Metrics::new();
    put_opt(&mut m, "yaw_rate_response_time_s", response.map(|r| r.0));
    put_opt(
        &mut m,
        "yaw_rate_overshoot_pct",
        response.map(|r| r.1 * 100.0),
    );
    put(
        &mut m,
        "steady_yaw_rate_deg_s",
        s.angular_velocity_body.z.to_degrees(),
    );
    put(&mut m, "steady_lat_g", s.specific_force_body.y / G);
    put(&mut m, "speed_kmh", s.velocity_body.x / KMH);
    Ok(m)
}

/// Coast-down in neutral, and the fitted road-load polynomial.
pub fn coastdown(sim: &mut Run, test: &CoastdownTest) -> Result<Metrics> {
    let mut run = StraightRun::start(sim, GearboxMode::Sequential, 0.5)?;
    sim.set_gear(0);
    sim.set_forward_speed(test.start_speed_kmh * KMH);
    let mut samples = Vec::new();
    let end = test.end_speed_kmh * KMH;
    loop {
        let sample = run.step(sim, Controls::default())?;
        if sim.ticks.is_multiple_of(100) {
            samples.push(sample);
        }
        if sample.speed < end || sample.t > 600.0 {
            break;
        }
    }
    // The first second carries the settling of the tyres' transient states.
    samples.retain(|s| s.t > 1.0);
    let fit = metrics::coastdown_fit(&samples, sim.vehicle().mass_kg())
        .context("the coast-down fit failed")?;
    let mut m = Metrics::new();
    put(&mut m, "coast_a_n", fit.0);
    put(&mut m, "coast_b_n_per_ms", fit.1);
    put(&mut m, "coast_c_n_per_m2s2", fit.2);
    put(&mut m, "coast_time_s", samples.last().map_or(0.0, |s| s.t));
    Ok(m)
}

/// The driver model laps the track for `duration_s` simulated seconds.
pub fn laps(sim: &mut Run, test: &LapsTest, duration_s: f64) -> Result<Metrics> {
    let track = sim
        .world()
        .track()
        .context("laps need a track with a closed centre line")?;
    let centre = &track.mesh.centre_line;
    if !centre.is_closed() {
        bail!("track '{}' is not a closed loop", track.name);
    }
    let first = centre.sample_at(0.0).context("empty centre line")?;
    let heading = first.tangent.y.atan2(first.tangent.x);
    sim.place(first.position.truncate(), heading, GearboxMode::Automatic)?;
    settle(sim, 0.5)?;
    // The session's own autopilot and lap timer, as in the window, at the test's pace.
    sim.set_autopilot_limits(AutopilotLimits {
        lateral_g: test.lateral_g,
        braking_g: test.braking_g,
    })?;
    let length = sim
        .autopilot()
        .context("laps need the autopilot")?
        .path()
        .length();
    let t_start = sim.snapshot().time_s;
    let mut lap_times = Vec::new();
    let mut worst_offset = 0.0f64;
    let mut min_z = f64::INFINITY;
    let end = t_start + duration_s;
    while sim.snapshot().time_s < end {
        let controls = sim
            .autopilot_controls()
            .context("laps need the autopilot")?;
        sim.step(&controls)?;
        min_z = min_z.min(sim.snapshot().position.z);
        if let Some(p) = sim.autopilot().and_then(DriverModel::last_projection) {
            worst_offset = worst_offset.max(p.lateral_offset.abs());
        }
        let times = sim.lap_times();
        if times.laps_completed as usize > lap_times.len()
            && let Some(lap) = times.last_lap_s
        {
            lap_times.push(lap);
        }
    }
    // The first lap starts from rest; the best lap is the best flying lap when there is one.
    let flying = if lap_times.len() > 1 {
        &lap_times[1..]
    } else {
        &lap_times[..]
    };
    let best = flying.iter().copied().reduce(f64::min);
    let mut m = Metrics::new();
    put(&mut m, "laps_completed", lap_times.len());
    put_opt(&mut m, "best_lap_s", best);
    put(&mut m, "lap_times_s", lap_times);
    put(&mut m, "simulated_s", sim.snapshot().time_s - t_start);
    put(&mut m, "track_length_m", length);
    put(&mut m, "max_lateral_offset_m", worst_offset);
    put(&mut m, "min_z_m", min_z);
    Ok(m)
}

/// Scripted per-tick inputs: each keyframe's controls hold until the next one, for
/// `duration_s` simulated seconds after the start (the script's own `duration_s`, or
/// `--duration`).
pub fn script(sim: &mut Run, test: &ScriptTest, duration_s: f64) -> Result<Metrics> {
    let StraightRun { origin, t0, .. } = StraightRun::start(sim, GearboxMode::Automatic, 0.5)?;
    sim.set_forward_speed(test.start_speed_kmh * KMH);
    let (mut max_lat, mut max_yaw, mut distance) = (0.0f64, 0.0f64, 0.0);
    let mut last = origin;
    let mut next = 0;
    let mut controls = Controls::default();
    for _ in 0..sim.ticks_in(duration_s) {
        let t = sim.snapshot().time_s - t0;
        while let Some(k) = test.keyframes.get(next).filter(|k| k.t_s <= t) {
            controls = k.controls;
            next += 1;
        }
        sim.step(&controls)?;
        let s = sim.snapshot();
        max_lat = max_lat.max(s.specific_force_body.y.abs() / G);
        max_yaw = max_yaw.max(s.angular_velocity_body.z.abs());
        let here = s.position.truncate();
        distance += here.distance(last);
        last = here;
    }
    let mut m = Metrics::new();
    put(&mut m, "distance_m", distance);
    put(
        &mut m,
        "final_speed_kmh",
        sim.snapshot().speed_m_per_s / KMH,
    );
    put(&mut m, "max_lat_g", max_lat);
    put(&mut m, "max_yaw_rate_deg_s", max_yaw.to_degrees());
    Ok(m)
}
