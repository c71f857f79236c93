pub mod xvfb;
