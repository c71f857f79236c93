//! Road-test figures computed from sampled traces: the numbers a magazine or a proving
//! ground reports, computed the way they compute them.

/// One sample of a straight-line run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StraightSample {
    /// Time since the start of the run (s).
    pub t: f64,
    /// Distance travelled since the start (m).
    pub distance: f64,
    /// Forward speed (m/s).
    pub speed: f64,
}

/// Miles per hour in metres per second.
pub const MPH: f64 = 0.447_04;
/// Kilometres per hour in metres per second.
pub const KMH: f64 = 1.0 / 3.6;
/// A quarter mile in metres.
pub const QUARTER_MILE_M: f64 = 402.336;
/// A foot in metres.
pub const FOOT_M: f64 = 0.3048;
/// Standard gravity (m/s²), the physics' own.
pub const G: f64 = gripline_physics::vehicle::GRAVITY;

/// Linear interpolation of `y` where `x` crosses `target` between two samples.
fn crossing(x0: f64, y0: f64, x1: f64, y1: f64, target: f64) -> f64 {
    if (x1 - x0).abs() < f64::EPSILON {
        y1
    } else {
        y0 + (y1 - y0) * (target - x0) / (x1 - x0)
    }
}

/// Time (s) at which the speed first reaches `speed` (m/s), interpolated between samples.
pub fn time_to_speed(samples: &[StraightSample], speed: f64) -> Option<f64> {
    samples.windows(2).find_map(|w| {
        (w[0].speed < speed && w[1].speed >= speed)
            .then(|| crossing(w[0].speed, w[0].t, w[1].speed, w[1].t, speed))
    })
}

/// Time (s) and speed (m/s) when the distance first reaches `distance` (m).
pub fn time_and_speed_at_distance(samples: &[StraightSample], distance: f64) -> Option<(f64, f64)> {
    samples.windows(2).find_map(|w| {
        (w[0].distance < distance && w[1].distance >= distance).then(|| {
            (
                crossing(w[0].distance, w[0].t, w[1].distance, w[1].t, distance),
                crossing(
                    w[0].distance,
                    w[0].speed,
                    w[1].distance,
                    w[1].speed,
                    distance,
                ),
            )
        })
    })
}

/// Distance (m) from the first sample at or below `from_speed` once braking started (the
/// first sample of `samples`) to standstill. `samples` start at the brake application.
pub fn stopping_distance(samples: &[StraightSample]) -> Option<f64> {
    let first = samples.first()?;
    let stop = samples.iter().find(|s| s.speed <= 0.01)?;
    Some(stop.distance - first.distance)
}

/// Steady top speed (m/s), or `None` if the run never settled: the last speed when it changed
/// by at most `tolerance` (m/s) over the last `window_s` seconds; else, for a car that cycles
/// on its rev limiter (the speed saws up and down and two instants may differ by more), the
/// mean speed of the window's second half when it is within a quarter of `tolerance` of the
/// first half's. A car still gaining speed steadily fails both (its halves' means differ by
/// about half its change over the window), so the second rule never settles it early.
pub fn steady_top_speed(samples: &[StraightSample], window_s: f64, tolerance: f64) -> Option<f64> {
    let last = samples.last()?;
    let from = samples.iter().position(|s| s.t >= last.t - window_s)?;
    if last.t - samples[0].t < window_s {
        return None;
    }
    if (last.speed - samples[from].speed).abs() <= tolerance {
        return Some(last.speed);
    }
    let window = &samples[from..];
    let (first, second) = window.split_at(window.len() / 2);
    let mean = |s: &[StraightSample]| s.iter().map(|s| s.speed).sum::<f64>() / s.len() as f64;
    if first.is_empty() || second.is_empty() {
        return None;
    }
    let settled = mean(second);
    ((settled - mean(first)).abs() <= 0.25 * tolerance).then_some(settled)
}

/// Coast-down fit: the road-load polynomial `F = a + b v + c v²` (N) fitted by least squares
/// to the deceleration of a coasting car of `mass_kg` (the SAE J2263 form). Returns
/// `(a, b, c)`, or `None` with fewer than ten samples or a singular fit.
pub fn coastdown_fit(samples: &[StraightSample], mass_kg: f64) -> Option<(f64, f64, f64)> {
    if samples.len() < 10 {
        return None;
    }
    // Deceleration by central differences; normal equations of the 3-parameter fit.
    let mut ata = [[0.0f64; 3]; 3];
    let mut atb = [0.0f64; 3];
    for w in samples.windows(3) {
        let dt = w[2].t - w[0].t;
        if dt <= 0.0 {
            continue;
        }
        let force = -mass_kg * (w[2].speed - w[0].speed) / dt;
        let v = w[1].speed;
        let row = [1.0, v, v * v];
        for i in 0..3 {
            for j in 0..3 {
                ata[i][j] += row[i] * row[j];
            }
            atb[i] += row[i] * force;
        }
    }
    solve3(ata, atb).map(|x| (x[0], x[1], x[2]))
}

/// Solves a 3x3 linear system by Gaussian elimination with partial pivoting.
fn solve3(mut a: [[f64; 3]; 3], mut b: [f64; 3]) -> Option<[f64; 3]> {
    for col in 0..3 {
        let pivot = (col..3).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..3 {
            let factor = a[row][col] / pivot_row[col];
            for (target, source) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *target -= factor * source;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; 3];
    for row in (0..3).rev() {
        let tail: f64 = (row + 1..3).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The time at which `value` first reaches `level` at or after `from` (s), interpolated
/// linearly between the two samples that bracket the crossing, so the result does not depend
/// on the sampling rate (tick) beyond the interpolation error.
fn crossing_time(
    samples: &[(f64, f64, f64)],
    from: f64,
    level: f64,
    value: impl Fn(&(f64, f64, f64)) -> f64,
) -> Option<f64> {
    let i = samples
        .iter()
        .position(|s| s.0 >= from && value(s) >= level)?;
    let at = samples[i];
    let Some(before) = i.checked_sub(1).map(|j| samples[j]) else {
        return Some(at.0);
    };
    let (v0, v1) = (value(&before), value(&at));
    if before.0 < from || v1 <= v0 {
        return Some(at.0);
    }
    let f = ((level - v0) / (v1 - v0)).clamp(0.0, 1.0);
    Some(before.0 + f * (at.0 - before.0))
}

/// Step-steer response (ISO 7401): time from the moment the steering input reaches half its
/// final value to the moment the yaw rate first reaches 90 % of its steady value (each
/// interpolated between ticks), and the overshoot of the yaw-rate peak over the steady value
/// (fraction).
///
/// `samples` are `(t, steering, yaw_rate)`; the steady value is the mean over the last
/// `steady_window_s` seconds.
pub fn step_response(samples: &[(f64, f64, f64)], steady_window_s: f64) -> Option<(f64, f64)> {
    let last = samples.last()?;
    let steer_final = last.1;
    let steady: Vec<f64> = samples
        .iter()
        .filter(|s| s.0 >= last.0 - steady_window_s)
        .map(|s| s.2)
        .collect();
    let steady = steady.iter().sum::<f64>() / steady.len() as f64;
    if steady.abs() < 1e-9 || steer_final.abs() < 1e-12 {
        return None;
    }
    let t_half = crossing_time(samples, 0.0, 0.5, |s| s.1 / steer_final)?;
    let t_90 = crossing_time(samples, t_half, 0.9, |s| s.2 / steady)?;
    let peak = samples
        .iter()
        .map(|s| s.2 / steady)
        .fold(f64::NEG_INFINITY, f64::max);
    Some((t_90 - t_half, (peak - 1.0).max(0.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Constant acceleration a from rest: v = a t, x = a t² / 2.
    fn constant_accel(a: f64, seconds: f64) -> Vec<StraightSample> {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let ticks = (seconds * 1000.0).round() as u32;
        (0..=ticks)
            .map(|i| f64::from(i) * 0.001)
            .map(|t| StraightSample {
                t,
                distance: 0.5 * a * t * t,
                speed: a * t,
            })
            .collect()
    }

    #[test]
    fn launch_figures_match_constant_acceleration() {
        let run = constant_accel(5.0, 20.0);
        let t60 = time_to_speed(&run, 60.0 * MPH).unwrap();
        assert!((t60 - 60.0 * MPH / 5.0).abs() < 1e-6);
        let (tq, vq) = time_and_speed_at_distance(&run, QUARTER_MILE_M).unwrap();
        assert!((tq - (2.0 * QUARTER_MILE_M / 5.0).sqrt()).abs() < 1e-5);
        assert!((vq - 5.0 * tq).abs() < 1e-4);
        assert!(time_to_speed(&run, 1000.0).is_none());
    }

    #[test]
    fn stopping_distance_is_v_squared_over_2a() {
        let v0 = 60.0 * MPH;
        let a = 9.0;
        let run: Vec<_> = (0..5000)
            .map(|i| {
                let t = f64::from(i) * 0.001;
                let speed = (v0 - a * t).max(0.0);
                let tt = t.min(v0 / a);
                StraightSample {
                    t,
                    distance: v0 * tt - 0.5 * a * tt * tt,
                    speed,
                }
            })
            .collect();
        let d = stopping_distance(&run).unwrap();
        assert!((d - v0 * v0 / (2.0 * a)).abs() < 0.01, "{d}");
    }

    #[test]
    fn coastdown_fit_recovers_the_road_load() {
        let (a, b, c, m) = (150.0, 3.0, 0.45, 1500.0);
        let mut v = 35.0;
        let mut run = Vec::new();
        let mut x = 0.0;
        for i in 0..60_000 {
            let t = f64::from(i) * 0.001;
            run.push(StraightSample {
                t,
                distance: x,
                speed: v,
            });
            let f = a + b * v + c * v * v;
            v -= f / m * 0.001;
            x += v * 0.001;
            if v < 5.0 {
                break;
            }
        }
        let decimated: Vec<_> = run.iter().step_by(100).copied().collect();
        let (fa, fb, fc) = coastdown_fit(&decimated, m).unwrap();
        assert!((fa - a).abs() < 0.02 * a, "a {fa}");
        assert!((fb - b).abs() < 0.05 * b + 0.2, "b {fb}");
        assert!((fc - c).abs() < 0.02 * c, "c {fc}");
    }

    #[test]
    fn step_response_of_a_second_order_system() {
        // Yaw rate r'' = wn² (K u - r) - 2 zeta wn r' with a steering step at t = 1 s.
        let (wn, zeta, gain) = (8.0, 0.5, 0.3);
        let (mut r, mut rd) = (0.0, 0.0);
        let mut samples = Vec::new();
        for i in 0..5000 {
            let t = f64::from(i) * 0.001;
            let u = if t >= 1.0 { 1.0 } else { 0.0 };
            samples.push((t, u, r));
            let rdd = wn * wn * (gain * u - r) - 2.0 * zeta * wn * rd;
            rd += rdd * 0.001;
            r += rd * 0.001;
        }
        let (t_response, overshoot) = step_response(&samples, 1.0).unwrap();
        // Overshoot of a second-order system: exp(-zeta pi / sqrt(1 - zeta²)) = 16.3 %.
        let expected = (-zeta * std::f64::consts::PI / (1.0 - zeta * zeta).sqrt()).exp();
        assert!(
            (overshoot - expected).abs() < 0.01,
            "{overshoot} vs {expected}"
        );
        assert!(t_response > 0.1 && t_response < 0.4, "{t_response}");
    }

    #[test]
    fn crossings_are_interpolated_between_samples() {
        // A ramp of the steering from t = 0.1 s over 0.2 s: half at 0.2 s, whatever the rate.
        let ramp = |dt: f64| -> Vec<(f64, f64, f64)> {
            (0..2000)
                .map(|i| {
                    let t = f64::from(i) * dt;
                    (t, ((t - 0.1) / 0.2).clamp(0.0, 1.0), 0.0)
                })
                .collect()
        };
        for dt in [0.001, 0.0007, 0.00025] {
            let t = crossing_time(&ramp(dt), 0.0, 0.5, |s| s.1).unwrap();
            assert!((t - 0.2).abs() < 1e-9, "dt {dt}: {t}");
        }
        // Already above the level at the first sample: that sample's time.
        assert_eq!(crossing_time(&ramp(0.001), 0.5, 0.5, |s| s.1), Some(0.5));
        assert_eq!(crossing_time(&ramp(0.001), 0.0, 2.0, |s| s.1), None);
    }

    #[test]
    fn top_speed_needs_a_settled_run() {
        let mut run = constant_accel(1.0, 5.0);
        assert!(steady_top_speed(&run, 2.0, 0.1).is_none());
        let last = *run.last().unwrap();
        run.extend((1..=3000).map(|i| StraightSample {
            t: last.t + f64::from(i) * 0.001,
            distance: last.distance + last.speed * f64::from(i) * 0.001,
            speed: last.speed,
        }));
        assert!((steady_top_speed(&run, 2.0, 0.1).unwrap() - last.speed).abs() < 1e-12);
    }

    #[test]
    fn a_car_sawing_on_its_limiter_settles_at_its_mean_speed() {
        // 85 m/s +- 0.6 m/s, a 0.4 s limiter cycle: the window's ends differ by 1.2 m/s.
        let saw = |t: f64| 85.0 + 1.2 * (2.0 * (t / 0.4 - (t / 0.4 + 0.5).floor())).abs() - 0.6;
        let run: Vec<StraightSample> = (0..=10_000)
            .map(|i| {
                let t = f64::from(i) * 0.001;
                StraightSample {
                    t,
                    distance: 85.0 * t,
                    speed: saw(t) + 0.001 * (t * 7.0).sin(),
                }
            })
            .collect();
        let top = steady_top_speed(&run, 5.0, 0.3).expect("settled on the limiter");
        assert!((top - 85.0).abs() < 0.05, "{top}");
        // Still gaining 0.1 m/s a second (0.5 m/s over the window, above 0.3): not settled.
        let rising: Vec<StraightSample> = run
            .iter()
            .map(|s| StraightSample {
                speed: s.speed + 0.1 * s.t,
                ..*s
            })
            .collect();
        assert!(steady_top_speed(&rising, 5.0, 0.3).is_none());
    }
}
