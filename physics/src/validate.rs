//! Parameter validation with field paths.
//!
//! Every parameter struct of the physics crate checks itself with a [`Validator`], which
//! collects all problems rather than stopping at the first, each with the dotted path of the
//! field it concerns (`model.lateral.b must be finite and positive`). The formats crate prefixes
//! the paths with the file's own structure and reports them to the user.

use std::fmt;

/// One problem found in a parameter set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Dotted path of the offending field, e.g. `points[3].slip`.
    pub path: String,
    /// What is wrong, phrased to follow the path: "must be finite and positive".
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.path, self.message)
    }
}

/// All problems found in a parameter set (never empty when returned as an error).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", join_violations(.0))]
pub struct Violations(pub Vec<Violation>);

fn join_violations(list: &[Violation]) -> String {
    list.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Types whose parameters can be checked for physical sense.
pub trait Validate {
    /// Reports every problem of `self` into `v`, with paths relative to `v`'s current prefix.
    fn validate(&self, v: &mut Validator);

    /// Runs [`Validate::validate`] from an empty prefix and returns all problems found.
    ///
    /// # Errors
    /// [`Violations`] listing every field that is out of range or inconsistent.
    fn check(&self) -> Result<(), Violations> {
        let mut v = Validator::default();
        self.validate(&mut v);
        v.finish()
    }
}

/// Collects [`Violation`]s under a stack of path segments.
#[derive(Debug, Default)]
pub struct Validator {
    prefix: Vec<String>,
    found: Vec<Violation>,
}

impl Validator {
    /// Creates a validator whose paths start with `root` (e.g. `tyre.model`).
    pub fn with_root(root: &str) -> Self {
        Self {
            prefix: vec![root.to_owned()],
            found: Vec::new(),
        }
    }

    fn path_of(&self, field: &str) -> String {
        let mut path = String::new();
        for segment in self.prefix.iter().map(String::as_str).chain([field]) {
            if segment.is_empty() {
                continue;
            }
            if !path.is_empty() && !segment.starts_with('[') {
                path.push('.');
            }
            path.push_str(segment);
        }
        path
    }

    /// Records a problem with `field` unconditionally.
    pub fn fail(&mut self, field: &str, message: impl Into<String>) {
        let path = self.path_of(field);
        self.found.push(Violation {
            path,
            message: message.into(),
        });
    }

    /// Records `message` for `field` unless `ok` holds.
    pub fn require(&mut self, ok: bool, field: &str, message: &str) {
        if !ok {
            self.fail(field, message);
        }
    }

    /// `value` must be a finite number.
    pub fn finite(&mut self, field: &str, value: f64) {
        self.require(value.is_finite(), field, "must be a finite number");
    }

    /// `value` must be finite and strictly positive.
    pub fn positive(&mut self, field: &str, value: f64) {
        self.require(
            value.is_finite() && value > 0.0,
            field,
            "must be finite and positive",
        );
    }

    /// `value` must be finite and not negative.
    pub fn non_negative(&mut self, field: &str, value: f64) {
        self.require(
            value.is_finite() && value >= 0.0,
            field,
            "must be finite and not negative",
        );
    }

    /// `value` must lie in `[lo, hi]`.
    pub fn in_range(&mut self, field: &str, value: f64, lo: f64, hi: f64) {
        if !(value.is_finite() && value >= lo && value <= hi) {
            self.fail(field, format!("must be between {lo} and {hi} (is {value})"));
        }
    }

    /// Validates a nested value under `field`.
    pub fn nested(&mut self, field: &str, value: &impl Validate) {
        self.prefix.push(field.to_owned());
        value.validate(self);
        self.prefix.pop();
    }

    /// Runs `f` with `field` pushed on the path, for checks of a nested value done in place.
    pub fn within(&mut self, field: &str, f: impl FnOnce(&mut Self)) {
        self.prefix.push(field.to_owned());
        f(self);
        self.prefix.pop();
    }

    /// Path segment for element `index` of a list, to use with [`Validator::within`].
    pub fn index(index: usize) -> String {
        format!("[{index}]")
    }

    /// Ends validation.
    ///
    /// # Errors
    /// Every violation recorded, when there is at least one.
    pub fn finish(self) -> Result<(), Violations> {
        if self.found.is_empty() {
            Ok(())
        } else {
            Err(Violations(self.found))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Pair {
        a: f64,
        b: f64,
    }
    impl Validate for Pair {
        fn validate(&self, v: &mut Validator) {
            v.positive("a", self.a);
            v.in_range("b", self.b, 0.0, 1.0);
        }
    }

    #[test]
    fn paths_nest_and_index() {
        let mut v = Validator::with_root("tyre");
        v.within("points", |v| {
            v.within(&Validator::index(3), |v| v.positive("slip", -1.0));
        });
        v.nested(
            "pair",
            &Pair {
                a: f64::NAN,
                b: 2.0,
            },
        );
        let err = v.finish().unwrap_err();
        let paths: Vec<_> = err.0.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["tyre.points[3].slip", "tyre.pair.a", "tyre.pair.b"]);
        assert!(
            err.to_string()
                .contains("tyre.pair.b must be between 0 and 1 (is 2)")
        );
    }

    #[test]
    fn valid_value_passes() {
        assert!(Pair { a: 1.0, b: 0.5 }.check().is_ok());
    }
}
