//! How a CPUID field gives the number of instances of a register family a CPU has: the YAML
//! register's `count-from: { leaf, register, field, as }`.

/// How the value of a `count-from:` CPUID field gives the number of instances (YAML `as:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "kebab-case")
)]
pub enum CountForm {
    /// The value is the number of instances (AMD's `LbrV2StackSz`, CPUID Fn8000_0022_EBX).
    Count,
    /// Bit n set: a depth of 8(n + 1) is supported; the deepest is the number of instances
    /// (Intel's architectural LBR depths, CPUID.(EAX=1CH,ECX=0):EAX\[7:0\]).
    DepthBitmap,
}

impl CountForm {
    /// `count` or `depth-bitmap`, as the YAML spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            CountForm::Count => "count",
            CountForm::DepthBitmap => "depth-bitmap",
        }
    }

    /// The number of instances a field `value` gives.
    ///
    /// ```
    /// use pmu_vocab::CountForm;
    ///
    /// assert_eq!(CountForm::Count.instances(16), 16);
    /// // Depths 8, 16 and 32 supported: 32 records.
    /// assert_eq!(CountForm::DepthBitmap.instances(0b1011), 32);
    /// assert_eq!(CountForm::DepthBitmap.instances(0), 0);
    /// ```
    pub const fn instances(self, value: u32) -> u32 {
        match self {
            CountForm::Count => value,
            CountForm::DepthBitmap if value == 0 => 0,
            CountForm::DepthBitmap => 8 * (32 - value.leading_zeros()),
        }
    }
}
