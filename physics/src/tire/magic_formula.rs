//! PLACEHOLDER — being written; replace entirely.
#![allow(missing_docs)]
use super::{TireInput, TireModel, TireOutput};
use crate::validate::{Validate, Validator};

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MagicFormula {}

impl TireModel for MagicFormula {
    fn evaluate(&self, _input: &TireInput) -> TireOutput {
        TireOutput::default()
    }
}

impl Validate for MagicFormula {
    fn validate(&self, _v: &mut Validator) {}
}
