//! The coupled, semi-implicit integration of engine and wheel spins.
//!
//! # Model
//!
//! Five rotating bodies: the engine (index 0) and the four wheels (1..=4, FL FR RL RR).
//! Everything that connects them, or ties one of them to the ground, is a *row*: a linear
//! speed `w = j · omega` (a slip speed) and a torque that acts along the row with an impulse
//! `lambda` per tick, bounded by `|lambda| <= bound` (a friction capacity times `dt`):
//!
//! | row | slip speed `w` | bound |
//! |---|---|---|
//! | engine friction | `omega_e` | resistive torque · dt |
//! | clutch | `omega_e - G * sum(k_i omega_i)` | clutch capacity · dt |
//! | differential lock (LSD, locked, viscous) | left - right, or front - rear | locking torque · dt (∞ for locked and viscous) |
//! | brake `i` | `omega_i` | brake torque · dt |
//!
//! `G` is the overall ratio and `k` the layout's wheel weights. A row either *sticks*
//! (`w = 0` after the step, `|lambda| <= bound`) or *slips* (`lambda = -bound * sign(w)`).
//! A viscous coupling is a sticking row with compliance `1 / (c * dt)`, which makes its
//! damping torque `c * w` implicit.
//!
//! # Step
//!
//! With `m_i` the effective inertia — the wheel inertia plus `-road_torque_slope * dt`, which
//! makes the stiff tyre implicit (backward Euler on the linearised road torque) — each body
//! first gets its *free* speed from the explicit torques (combustion, starter, road):
//! `v*_i = omega_i + dt * T_i / m_i`. The row impulses then solve
//!
//! ```text
//! omega' = v* + M⁻¹ Σ_r f_r lambda_r,
//! sticking rows:  j_r · omega' + c_r lambda_r = 0,
//! slipping rows:  lambda_r = ∓ bound_r,  with j_r · omega' keeping its sign,
//! ```
//!
//! a mixed linear complementarity problem over at most nine rows. It is solved by an active
//! set: start from last tick's stick/slip states, solve the sticking rows' dense system (a
//! fixed 9×9 Gaussian elimination with partial pivoting, no allocation), then pivot once —
//! the sticking row whose impulse most exceeds its bound goes to slipping, or else the
//! slipping row whose slip speed reversed most goes to sticking — and repeat until nothing
//! is violated (warm-started, that is one solve on almost every tick). A degenerate set that
//! cycles (a parked car in gear, brakes on, engine stopped: more couplings than bodies) is
//! finished by projected Gauss-Seidel sweeps, clamped to the bounds. That is the standard stick/slip test on the
//! *required* torque, taken for all couplings at once: a locked clutch and a locked
//! differential form one rigid chain through the common solve; a brake holds a stopped wheel
//! exactly (its row sticks at `w = 0` while the other torques are within its capacity); the
//! engine's friction holds a stalled engine still. Because every coupling is solved for the
//! end-of-step speeds, nothing overshoots zero slip and nothing chatters, at any `dt`.
//!
//! The clutch row carries the gearbox efficiency `eta`: its torque on the wheels is
//! `eta * G * k_i` per unit engine torque when the engine drives and `G * k_i / eta` on the
//! overrun (`f_r` differs from `j_r` there). For a sticking clutch the direction of the power
//! flow is taken from the previous tick.

/// Bodies: the engine and four wheels.
pub const BODIES: usize = 5;
/// Row slots: engine friction, clutch, centre / front / rear differential, four brakes.
pub const ROWS: usize = 9;
/// Row slot of the engine friction.
pub const ROW_ENGINE: usize = 0;
/// Row slot of the clutch.
pub const ROW_CLUTCH: usize = 1;
/// Row slot of the first differential (centre, front, rear follow).
pub const ROW_DIFF: usize = 2;
/// Row slot of the first brake (FL, FR, RL, RR follow).
pub const ROW_BRAKE: usize = 5;

/// Most active-set iterations per step.
pub const MAX_ITERATIONS: usize = 24;
/// Projected Gauss-Seidel sweeps of the fallback.
const PGS_SWEEPS: usize = 32;
/// Slip speed (rad/s) a slipping row may reverse by before it is switched to sticking.
const SLIP_REVERSAL_TOL: f64 = 1e-9;
/// Relative excess of a sticking row's impulse over its bound before it is switched to
/// slipping.
const BOUND_TOL: f64 = 1e-12;
/// Relative regularisation of the sticking rows' diagonal, for redundant rows (a parked car
/// in gear with the brakes on ties the same wheels several ways).
const REGULARISATION: f64 = 1e-12;

/// Stick/slip state of a row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RowState {
    /// No slip: the impulse is whatever keeps the slip speed at zero.
    #[default]
    Stuck,
    /// Slipping with the impulse at `-bound` (the slip speed is positive).
    Lower,
    /// Slipping with the impulse at `+bound` (the slip speed is negative).
    Upper,
}

/// One coupling row.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Row {
    /// The row takes part in this step.
    pub active: bool,
    /// Slip speed weights: `w = j · omega`.
    pub j: [f64; BODIES],
    /// Torque per unit impulse on each body when slipping at the lower bound.
    pub f_lower: [f64; BODIES],
    /// Torque per unit impulse on each body when slipping at the upper bound.
    pub f_upper: [f64; BODIES],
    /// Torque per unit impulse on each body when sticking.
    pub f_stuck: [f64; BODIES],
    /// Impulse bound (≥ 0; infinite for a rigid or viscous row).
    pub bound: f64,
    /// Compliance: a sticking row solves `w + compliance * lambda = 0`.
    pub compliance: f64,
}

impl Row {
    /// A symmetric row (the torque acts along the slip speed's own weights).
    pub fn symmetric(j: [f64; BODIES], bound: f64, compliance: f64) -> Self {
        Self {
            active: true,
            j,
            f_lower: j,
            f_upper: j,
            f_stuck: j,
            bound,
            compliance,
        }
    }

    fn force(&self, state: RowState) -> &[f64; BODIES] {
        match state {
            RowState::Stuck => &self.f_stuck,
            RowState::Lower => &self.f_lower,
            RowState::Upper => &self.f_upper,
        }
    }
}

/// The problem of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Problem {
    /// Inverse effective inertias.
    pub inv_mass: [f64; BODIES],
    /// Free speeds after the explicit torques.
    pub v_free: [f64; BODIES],
    /// The rows, by slot.
    pub rows: [Row; ROWS],
}

/// The result of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Solution {
    /// Speeds at the end of the step.
    pub v: [f64; BODIES],
    /// Row impulses (torque times `dt`).
    pub lambda: [f64; ROWS],
    /// Active-set iterations used.
    pub iterations: usize,
    /// The active set settled (otherwise projected Gauss-Seidel finished the step).
    pub converged: bool,
}

fn dot(a: &[f64; BODIES], b: &[f64; BODIES]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn add_impulse(v: &mut [f64; BODIES], inv_mass: &[f64; BODIES], f: &[f64; BODIES], lambda: f64) {
    for ((vi, mi), fi) in v.iter_mut().zip(inv_mass).zip(f) {
        *vi += mi * fi * lambda;
    }
}

/// Solves `a x = b` for the leading `n` rows in place (partial pivoting); `b` holds `x` on
/// return. A vanishing pivot leaves its unknown at zero.
fn solve_dense(a: &mut [[f64; ROWS]; ROWS], b: &mut [f64; ROWS], n: usize) {
    for col in 0..n {
        let mut pivot = col;
        for r in col + 1..n {
            if a[r][col].abs() > a[pivot][col].abs() {
                pivot = r;
            }
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let p = a[col][col];
        if p.abs() < 1e-300 {
            continue;
        }
        let pivot_row = a[col];
        let pivot_b = b[col];
        for r in col + 1..n {
            let factor = a[r][col] / p;
            if factor == 0.0 {
                continue;
            }
            for (x, y) in a[r][col..n].iter_mut().zip(&pivot_row[col..n]) {
                *x -= factor * y;
            }
            b[r] -= factor * pivot_b;
        }
    }
    for col in (0..n).rev() {
        let mut s = b[col];
        for c in col + 1..n {
            s -= a[col][c] * b[c];
        }
        let p = a[col][col];
        b[col] = if p.abs() < 1e-300 { 0.0 } else { s / p };
    }
}

/// Projected Gauss-Seidel sweeps over the active rows, starting from `lambda` (clamped to
/// the bounds); returns the speeds. The efficiency-carrying clutch row uses the force of the
/// sign its impulse has.
fn projected_gauss_seidel(p: &Problem, lambda: &mut [f64; ROWS]) -> [f64; BODIES] {
    let force = |row: &Row, l: f64| {
        if l < 0.0 {
            row.f_lower
        } else if l > 0.0 {
            row.f_upper
        } else {
            row.f_stuck
        }
    };
    let mut v = p.v_free;
    for (r, row) in p.rows.iter().enumerate() {
        if row.active {
            lambda[r] = lambda[r].clamp(-row.bound, row.bound);
            add_impulse(&mut v, &p.inv_mass, &force(row, lambda[r]), lambda[r]);
        } else {
            lambda[r] = 0.0;
        }
    }
    for _ in 0..PGS_SWEEPS {
        for (r, row) in p.rows.iter().enumerate() {
            if !row.active {
                continue;
            }
            let old = lambda[r];
            let f_old = force(row, old);
            let diag: f64 = row
                .j
                .iter()
                .zip(&p.inv_mass)
                .zip(&f_old)
                .map(|((j, m), f)| j * m * f)
                .sum::<f64>()
                + row.compliance;
            if diag <= 0.0 || !diag.is_finite() {
                continue;
            }
            let w = dot(&row.j, &v) + row.compliance * old;
            let new = (old - w / diag).clamp(-row.bound, row.bound);
            add_impulse(&mut v, &p.inv_mass, &f_old, -old);
            add_impulse(&mut v, &p.inv_mass, &force(row, new), new);
            lambda[r] = new;
        }
    }
    v
}

/// Solves one step's rows, starting from (and updating) the stick/slip `states`.
pub fn solve(p: &Problem, states: &mut [RowState; ROWS]) -> Solution {
    for (row, state) in p.rows.iter().zip(states.iter_mut()) {
        if !row.active || !row.bound.is_finite() {
            *state = RowState::Stuck;
        }
    }
    let mut lambda = [0.0; ROWS];
    let mut v = p.v_free;
    let mut iterations = 0;
    let mut converged = false;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        // Slipping rows: fixed impulses.
        let mut base = p.v_free;
        for (r, row) in p.rows.iter().enumerate() {
            lambda[r] = 0.0;
            if !row.active {
                continue;
            }
            match states[r] {
                RowState::Stuck => {}
                RowState::Lower => lambda[r] = -row.bound,
                RowState::Upper => lambda[r] = row.bound,
            }
            if states[r] != RowState::Stuck {
                add_impulse(&mut base, &p.inv_mass, row.force(states[r]), lambda[r]);
            }
        }
        // Sticking rows: dense solve.
        let mut index = [0usize; ROWS];
        let mut n = 0;
        for (r, row) in p.rows.iter().enumerate() {
            if row.active && states[r] == RowState::Stuck {
                index[n] = r;
                n += 1;
            }
        }
        let mut a = [[0.0; ROWS]; ROWS];
        let mut b = [0.0; ROWS];
        for x in 0..n {
            let rx = &p.rows[index[x]];
            b[x] = -dot(&rx.j, &base);
            for y in 0..n {
                let ry = &p.rows[index[y]];
                a[x][y] =
                    rx.j.iter()
                        .zip(&p.inv_mass)
                        .zip(&ry.f_stuck)
                        .map(|((j, m), f)| j * m * f)
                        .sum();
            }
            a[x][x] += rx.compliance + REGULARISATION * a[x][x].abs();
        }
        solve_dense(&mut a, &mut b, n);
        v = base;
        for x in 0..n {
            lambda[index[x]] = b[x];
            add_impulse(&mut v, &p.inv_mass, &p.rows[index[x]].f_stuck, b[x]);
        }
        // Consistency: switch the worst violation only (one pivot per iteration), a
        // sticking row over its bound first.
        let mut over: Option<(usize, f64)> = None;
        let mut reversed: Option<(usize, f64)> = None;
        for (r, row) in p.rows.iter().enumerate() {
            if !row.active {
                continue;
            }
            let w = dot(&row.j, &v);
            match states[r] {
                RowState::Stuck => {
                    let excess = lambda[r].abs() / row.bound;
                    if excess > 1.0 + BOUND_TOL && over.is_none_or(|(_, e)| excess > e) {
                        over = Some((r, excess));
                    }
                }
                RowState::Lower | RowState::Upper => {
                    // Slip speed against the direction the friction was assumed to oppose.
                    let back = if states[r] == RowState::Lower { -w } else { w };
                    if back > SLIP_REVERSAL_TOL && reversed.is_none_or(|(_, e)| back > e) {
                        reversed = Some((r, back));
                    }
                }
            }
        }
        if let Some((r, _)) = over {
            states[r] = if lambda[r] < 0.0 {
                RowState::Lower
            } else {
                RowState::Upper
            };
        } else if let Some((r, _)) = reversed {
            states[r] = RowState::Stuck;
        } else {
            converged = true;
            break;
        }
    }
    if !converged {
        // A degenerate set (many redundant couplings at rest, e.g. a parked car in gear with
        // all brakes on) can make the pivoting cycle. Finish with projected Gauss-Seidel from
        // the last impulses, clamped to the bounds: never more torque than a coupling can
        // carry.
        v = projected_gauss_seidel(p, &mut lambda);
        for (r, row) in p.rows.iter().enumerate() {
            if row.active && row.bound.is_finite() {
                states[r] = if lambda[r] <= -row.bound {
                    RowState::Lower
                } else if lambda[r] >= row.bound {
                    RowState::Upper
                } else {
                    RowState::Stuck
                };
            }
        }
    }
    Solution {
        v,
        lambda,
        iterations,
        converged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(i: usize) -> [f64; BODIES] {
        let mut j = [0.0; BODIES];
        j[i] = 1.0;
        j
    }

    #[test]
    fn dense_solver_solves() {
        let mut a = [[0.0; ROWS]; ROWS];
        a[0][0] = 2.0;
        a[0][1] = 1.0;
        a[1][0] = 1.0;
        a[1][1] = 3.0;
        let mut b = [0.0; ROWS];
        b[0] = 5.0;
        b[1] = 10.0;
        solve_dense(&mut a, &mut b, 2);
        assert!((b[0] - 1.0).abs() < 1e-12 && (b[1] - 3.0).abs() < 1e-12);
    }

    #[test]
    fn friction_row_sticks_within_capacity_and_slips_beyond() {
        let mut p = Problem {
            inv_mass: [1.0; BODIES],
            ..Problem::default()
        };
        p.v_free[1] = 0.5;
        p.rows[ROW_BRAKE] = Row::symmetric(unit(1), 1.0, 0.0);
        let mut states = [RowState::Stuck; ROWS];
        let s = solve(&p, &mut states);
        assert!(s.converged);
        assert!(s.v[1].abs() < 1e-12);
        assert!((s.lambda[ROW_BRAKE] + 0.5).abs() < 1e-9);
        assert_eq!(states[ROW_BRAKE], RowState::Stuck);
        p.v_free[1] = 3.0;
        let s = solve(&p, &mut states);
        assert!((s.v[1] - 2.0).abs() < 1e-12);
        assert_eq!(states[ROW_BRAKE], RowState::Lower);
        // Warm-started slipping row that would overshoot zero switches to sticking.
        p.v_free[1] = -0.2;
        let s = solve(&p, &mut states);
        assert!(s.v[1].abs() < 1e-12);
        assert_eq!(states[ROW_BRAKE], RowState::Stuck);
    }

    #[test]
    fn projected_gauss_seidel_fallback_respects_bounds() {
        // A brake holding a wheel against a torque within capacity, and one that cannot.
        let mut p = Problem {
            inv_mass: [1.0; BODIES],
            ..Problem::default()
        };
        p.v_free[1] = 0.5;
        p.v_free[2] = 3.0;
        p.rows[ROW_BRAKE] = Row::symmetric(unit(1), 1.0, 0.0);
        p.rows[ROW_BRAKE + 1] = Row::symmetric(unit(2), 1.0, 0.0);
        let mut lambda = [0.0; ROWS];
        lambda[ROW_BRAKE] = 5.0; // out of bounds on purpose: clamped first
        let v = projected_gauss_seidel(&p, &mut lambda);
        assert!(v[1].abs() < 1e-12, "{}", v[1]);
        assert!((lambda[ROW_BRAKE] + 0.5).abs() < 1e-12);
        assert!((v[2] - 2.0).abs() < 1e-12);
        assert!((lambda[ROW_BRAKE + 1] + 1.0).abs() < 1e-12);
    }

    #[test]
    fn redundant_rigid_rows_stay_finite() {
        // Engine tied to wheel 1 by a rigid row, each held by a friction row, and a second
        // identical rigid row: singular without regularisation.
        let mut p = Problem {
            inv_mass: [5.0, 1.0, 1.0, 1.0, 1.0],
            v_free: [3.0, -2.0, 0.0, 0.0, 0.0],
            ..Problem::default()
        };
        let chain = [1.0, -2.0, 0.0, 0.0, 0.0];
        p.rows[ROW_ENGINE] = Row::symmetric(unit(0), 10.0, 0.0);
        p.rows[ROW_CLUTCH] = Row::symmetric(chain, f64::INFINITY, 0.0);
        p.rows[ROW_DIFF] = Row::symmetric(chain, f64::INFINITY, 0.0);
        p.rows[ROW_BRAKE] = Row::symmetric(unit(1), 10.0, 0.0);
        let mut states = [RowState::Stuck; ROWS];
        let s = solve(&p, &mut states);
        assert!(s.v.iter().all(|x| x.is_finite()));
        assert!(s.v[0].abs() < 1e-9 && s.v[1].abs() < 1e-9, "{:?}", s.v);
    }
}
