//! How software may access a register or field: the YAML `access:`.

/// How software may access a register or field (YAML `access:`, spelled as [`Access::as_str`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "kebab-case")
)]
pub enum Access {
    /// Read and write.
    ReadWrite,
    /// Read only: writing faults (#GP).
    ReadOnly,
    /// Write only: reads return nothing meaningful.
    WriteOnly,
    /// Write-only; each 1 written clears the matching status bit, a 0 has no effect.
    #[cfg_attr(feature = "serde", serde(rename = "write-1-to-clear"))]
    WriteOneToClear,
    /// Write-only; each 1 written sets the matching status bit, a 0 has no effect.
    #[cfg_attr(feature = "serde", serde(rename = "write-1-to-set"))]
    WriteOneToSet,
}

impl Access {
    /// Every access, in the order of the YAML vocabulary.
    pub const ALL: [Access; 5] = [
        Access::ReadWrite,
        Access::ReadOnly,
        Access::WriteOnly,
        Access::WriteOneToClear,
        Access::WriteOneToSet,
    ];

    /// Reads return the register's state.
    pub const fn readable(self) -> bool {
        matches!(self, Access::ReadWrite | Access::ReadOnly)
    }

    /// The register may be written.
    pub const fn writable(self) -> bool {
        !matches!(self, Access::ReadOnly)
    }

    /// The YAML spelling (`access: write-1-to-clear`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Access::ReadWrite => "read-write",
            Access::ReadOnly => "read-only",
            Access::WriteOnly => "write-only",
            Access::WriteOneToClear => "write-1-to-clear",
            Access::WriteOneToSet => "write-1-to-set",
        }
    }
}
