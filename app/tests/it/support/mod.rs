pub mod full_check;
pub mod xvfb;
