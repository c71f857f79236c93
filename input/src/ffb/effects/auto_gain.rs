//! Auto-gain: the master gain that keeps clipping under irFFB's 2.5 % threshold for the way
//! this car is being driven.
//!
//! Each tick while the car moves, the torque the pipeline would ask for at gain 1 goes into a
//! histogram (log-spaced bins from [`MIN_NM`] to [`MAX_NM`], allocated once). At the end of a
//! lap (or on request) [`AutoGain::propose`] returns `max_torque / T97.5`, where `T97.5` is
//! the torque that 97.5 % of the observed ticks stay under, so that at most 2.5 % of them
//! would clip at that gain; bounded to [`MIN_GAIN`]..[`MAX_GAIN`]. Nothing is proposed before
//! [`MIN_TICKS`] of driving.

/// Smallest torque binned (N·m); smaller ones count in the first bin.
pub const MIN_NM: f64 = 0.01;
/// Largest torque binned (N·m); larger ones count in the last bin.
pub const MAX_NM: f64 = 200.0;
/// Number of bins (about 1 % wide each).
pub const BINS: usize = 1000;
/// Share of ticks allowed to clip.
pub const CLIP_SHARE: f64 = 0.025;
/// Ticks of driving needed before a gain is proposed (10 s at 1 kHz).
pub const MIN_TICKS: u64 = 10_000;
/// Lowest gain proposed.
pub const MIN_GAIN: f64 = 0.1;
/// Highest gain proposed.
pub const MAX_GAIN: f64 = 5.0;
/// Largest rise one lap's proposal may ask for, as a factor of the gain in force: a lap
/// driven gently must not propose a gain that makes the next hard corner violent. Lower
/// gains are proposed as computed (weaker is never a hazard).
pub const MAX_RISE_PER_LAP: f64 = 1.25;

/// The gain to propose to a user whose gain is `current` when a lap asks for `computed`:
/// at most [`MAX_RISE_PER_LAP`] times the current gain (from at least [`MIN_GAIN`]), never
/// below [`MIN_GAIN`] or above [`MAX_GAIN`]; `None` for a non-finite value.
pub fn limit_rise(current: f64, computed: f64) -> Option<f64> {
    if !(current.is_finite() && computed.is_finite()) {
        return None;
    }
    let ceiling = current.max(MIN_GAIN) * MAX_RISE_PER_LAP;
    Some(computed.min(ceiling).clamp(MIN_GAIN, MAX_GAIN))
}

/// The observed torques (see the module docs).
#[derive(Clone, Debug)]
pub struct AutoGain {
    counts: Vec<u32>,
    total: u64,
}

impl Default for AutoGain {
    fn default() -> Self {
        Self {
            counts: vec![0; BINS],
            total: 0,
        }
    }
}

fn bin_of(nm: f64) -> usize {
    let ratio = (nm.max(MIN_NM) / MIN_NM).ln() / (MAX_NM / MIN_NM).ln();
    // Clamped to the bin range first, so the cast cannot truncate or wrap.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let bin = (ratio * BINS as f64).clamp(0.0, (BINS - 1) as f64) as usize;
    bin
}

fn upper_edge(bin: usize) -> f64 {
    MIN_NM * (MAX_NM / MIN_NM).powf((bin + 1) as f64 / BINS as f64)
}

impl AutoGain {
    /// Records one tick's torque at gain 1 (N·m). Non-finite values are ignored.
    pub fn observe(&mut self, torque_at_unit_gain_nm: f64) {
        if !torque_at_unit_gain_nm.is_finite() {
            return;
        }
        let bin = bin_of(torque_at_unit_gain_nm.abs());
        self.counts[bin] = self.counts[bin].saturating_add(1);
        self.total += 1;
    }

    /// Ticks observed since the last reset.
    pub fn observed(&self) -> u64 {
        self.total
    }

    /// The gain for a maximum torque of `max_torque_nm` (see the module docs), or `None`
    /// before enough driving.
    pub fn propose(&self, max_torque_nm: f64) -> Option<f64> {
        if self.total < MIN_TICKS || !(max_torque_nm.is_finite() && max_torque_nm > 0.0) {
            return None;
        }
        let allowed = (CLIP_SHARE * self.total as f64).floor();
        let mut above = 0.0;
        for bin in (0..BINS).rev() {
            above += f64::from(self.counts[bin]);
            if above > allowed {
                // Every tick in this bin or below stays at or under its upper edge.
                let t97 = upper_edge(bin);
                return Some((max_torque_nm / t97).clamp(MIN_GAIN, MAX_GAIN));
            }
        }
        None
    }

    /// Starts a new observation (after a gain was applied).
    pub fn reset(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = 0);
        self.total = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proposal_rises_at_most_a_quarter_per_lap() {
        assert_eq!(limit_rise(1.0, 3.0), Some(1.25));
        assert_eq!(limit_rise(1.0, 1.1), Some(1.1));
        // Weaker is proposed as computed.
        assert_eq!(limit_rise(2.0, 0.5), Some(0.5));
        // From a muted gain, the rise starts from the lowest gain.
        assert_eq!(limit_rise(0.0, 2.0), Some(MIN_GAIN * MAX_RISE_PER_LAP));
        assert_eq!(limit_rise(f64::NAN, 2.0), None);
        assert_eq!(limit_rise(1.0, f64::INFINITY), None);
    }

    /// A deterministic "lap": torques spread like a real trace (mostly moderate, a few
    /// spikes), from a fixed linear congruential sequence.
    fn lap() -> Vec<f64> {
        let mut x: u64 = 12_345;
        (0..60_000)
            .map(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let u = (x >> 11) as f64 / (1u64 << 53) as f64;
                // An exponential distribution of mean 3 N·m, signed.
                let t = -3.0 * (1.0 - u).ln();
                if x & 1 == 0 { t } else { -t }
            })
            .collect()
    }

    #[test]
    fn the_proposed_gain_clips_between_1_and_2_5_percent_of_the_lap() {
        let trace = lap();
        let mut auto = AutoGain::default();
        for t in &trace {
            auto.observe(*t);
        }
        let max = 4.0;
        let gain = auto.propose(max).expect("a lap is enough");
        let clipped = trace.iter().filter(|t| (*t * gain).abs() > max).count();
        let share = clipped as f64 / trace.len() as f64;
        assert!(share <= CLIP_SHARE, "clips {share}");
        assert!(share > 0.01, "needlessly low gain: clips only {share}");
        // Exponential of mean 3: the 97.5th percentile is 3 ln 40 = 11.07 N·m.
        assert!(
            (gain - max / (3.0 * 40f64.ln())).abs() < 0.02 * gain,
            "{gain}"
        );
    }

    #[test]
    fn nothing_before_enough_driving_and_bad_values_ignored() {
        let mut auto = AutoGain::default();
        for _ in 0..(MIN_TICKS - 1) {
            auto.observe(2.0);
        }
        auto.observe(f64::NAN);
        assert_eq!(auto.observed(), MIN_TICKS - 1);
        assert!(auto.propose(4.0).is_none());
        auto.observe(2.0);
        let gain = auto.propose(4.0).unwrap();
        assert!((gain - 2.0).abs() < 0.05, "{gain}");
        auto.reset();
        assert!(auto.propose(4.0).is_none());
    }
}
