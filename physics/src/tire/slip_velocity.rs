//! PLACEHOLDER — being written; replace entirely.
#![allow(missing_docs)]
use super::{TireInput, TireModel, TireOutput};
use crate::validate::{Validate, Validator};

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SlipVelocityTire {}

impl TireModel for SlipVelocityTire {
    fn evaluate(&self, _input: &TireInput) -> TireOutput {
        TireOutput::default()
    }
}

impl Validate for SlipVelocityTire {
    fn validate(&self, _v: &mut Validator) {}
}
