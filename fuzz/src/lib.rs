//! The fuzz targets' common code: [`harness`] (also run by the regression tests).

pub mod harness;
