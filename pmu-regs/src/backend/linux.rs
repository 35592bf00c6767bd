//! Linux user space: `/dev/cpu/N/msr` (the `msr` driver, `arch/x86/kernel/msr.c`).
//!
//! One [`DevMsr`] per CPU. An MSR is read or written as 8 bytes at file offset = its address
//! (`pread`/`pwrite` through [`std::os::unix::fs::FileExt`]). The driver runs the access on that
//! CPU with `rdmsr_safe_on_cpu`/`wrmsr_safe_on_cpu` and reports a faulting access (#GP: an
//! unimplemented MSR, a reserved bit) as `EIO`.
//!
//! Errors say what to do: load the driver (`modprobe msr`), run as root (opening needs
//! `CAP_SYS_RAWIO`), or stop writing a value the CPU refuses.

use crate::access::RawMsr;
use std::fmt;
use std::format;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::vec::Vec;

/// One CPU's MSR device.
#[derive(Debug)]
pub struct DevMsr {
    file: File,
    cpu: u32,
    path: PathBuf,
    writable: bool,
}

/// Which operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Opening the device.
    Open,
    /// Reading an MSR.
    Read,
    /// Writing an MSR.
    Write,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Op::Open => "opening",
            Op::Read => "reading",
            Op::Write => "writing",
        })
    }
}

/// Why an access through `/dev/cpu/N/msr` failed.
#[derive(Debug)]
pub enum DevMsrError {
    /// The device file does not exist: the `msr` driver is not loaded, or the CPU does not
    /// exist or is offline.
    DeviceMissing {
        /// CPU number.
        cpu: u32,
        /// The device path.
        path: PathBuf,
        /// `/dev/cpu/N` exists (so the CPU is there and the driver is what is missing).
        cpu_dir_exists: bool,
        /// The underlying error (ENOENT, ENXIO, ENODEV).
        source: io::Error,
    },
    /// The kernel refused: opening needs root or `CAP_SYS_RAWIO`; writes can also be refused
    /// by the `msr.allow_writes=off` parameter or kernel lockdown.
    PermissionDenied {
        /// CPU number.
        cpu: u32,
        /// The device path.
        path: PathBuf,
        /// What was refused.
        op: Op,
        /// The MSR, for reads and writes.
        address: Option<u32>,
        /// The underlying error (EACCES, EPERM).
        source: io::Error,
    },
    /// The access faulted on the CPU (#GP, reported as EIO): the MSR is not implemented, or
    /// the value sets a reserved bit or is otherwise invalid.
    Faulted {
        /// CPU number.
        cpu: u32,
        /// The MSR.
        address: u32,
        /// Read or write.
        op: Op,
        /// The value, for writes.
        value: Option<u64>,
    },
    /// The handle was opened read-only.
    ReadOnlyHandle {
        /// CPU number.
        cpu: u32,
        /// The MSR a write was attempted to.
        address: u32,
    },
    /// Any other I/O error.
    Io {
        /// CPU number.
        cpu: u32,
        /// The device path.
        path: PathBuf,
        /// What failed.
        op: Op,
        /// The MSR, for reads and writes.
        address: Option<u32>,
        /// The error.
        source: io::Error,
    },
}

impl DevMsrError {
    /// The CPU the error concerns.
    pub fn cpu(&self) -> u32 {
        match self {
            DevMsrError::DeviceMissing { cpu, .. }
            | DevMsrError::PermissionDenied { cpu, .. }
            | DevMsrError::Faulted { cpu, .. }
            | DevMsrError::ReadOnlyHandle { cpu, .. }
            | DevMsrError::Io { cpu, .. } => *cpu,
        }
    }
}

impl fmt::Display for DevMsrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DevMsrError::DeviceMissing {
                cpu,
                path,
                cpu_dir_exists,
                source,
            } => {
                if *cpu_dir_exists {
                    write!(
                        f,
                        "{} does not exist ({source}): the msr driver is not loaded; load it as root with `modprobe msr`",
                        path.display()
                    )
                } else {
                    write!(
                        f,
                        "{} does not exist ({source}): CPU {cpu} is absent or offline, or the msr driver is not loaded (`modprobe msr` as root)",
                        path.display()
                    )
                }
            }
            DevMsrError::PermissionDenied {
                path,
                op,
                address,
                source,
                ..
            } => {
                match (op, address) {
                    (Op::Open, _) | (_, None) => {
                        write!(f, "permission denied {op} {} ({source})", path.display())?
                    }
                    (_, Some(a)) => write!(
                        f,
                        "permission denied {op} MSR {a:#x} through {} ({source})",
                        path.display()
                    )?,
                }
                match op {
                    Op::Write => f.write_str(
                        ": MSR writes need root with CAP_SYS_RAWIO, and the kernel may forbid them (msr.allow_writes=off, or lockdown)",
                    ),
                    _ => f.write_str(": run as root (the device needs CAP_SYS_RAWIO and read permission)"),
                }
            }
            DevMsrError::Faulted {
                cpu,
                address,
                op,
                value,
            } => {
                write!(
                    f,
                    "{op} MSR {address:#x} on CPU {cpu} faulted (#GP, EIO from the msr driver)"
                )?;
                match value {
                    Some(v) => write!(
                        f,
                        ": the MSR is not implemented on this CPU or {v:#x} sets a reserved bit"
                    ),
                    None => f.write_str(": the MSR is not implemented on this CPU"),
                }
            }
            DevMsrError::ReadOnlyHandle { cpu, address } => write!(
                f,
                "cannot write MSR {address:#x}: /dev/cpu/{cpu}/msr was opened read-only"
            ),
            DevMsrError::Io {
                path,
                op,
                address,
                source,
                ..
            } => match address {
                Some(a) => write!(
                    f,
                    "{op} MSR {a:#x} through {} failed: {source}",
                    path.display()
                ),
                None => write!(f, "{op} {} failed: {source}", path.display()),
            },
        }
    }
}

impl std::error::Error for DevMsrError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DevMsrError::DeviceMissing { source, .. }
            | DevMsrError::PermissionDenied { source, .. }
            | DevMsrError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The path of CPU `cpu`'s MSR device.
pub fn device_path(cpu: u32) -> PathBuf {
    PathBuf::from(format!("/dev/cpu/{cpu}/msr"))
}

impl DevMsr {
    /// Opens CPU `cpu`'s device for reading and writing.
    pub fn open(cpu: u32) -> Result<Self, DevMsrError> {
        Self::open_with(cpu, true)
    }

    /// Opens CPU `cpu`'s device for reading only.
    pub fn open_read_only(cpu: u32) -> Result<Self, DevMsrError> {
        Self::open_with(cpu, false)
    }

    fn open_with(cpu: u32, write: bool) -> Result<Self, DevMsrError> {
        let path = device_path(cpu);
        match OpenOptions::new().read(true).write(write).open(&path) {
            Ok(file) => Ok(DevMsr {
                file,
                cpu,
                path,
                writable: write,
            }),
            Err(source) => Err(classify_open(cpu, path, source)),
        }
    }

    /// The CPU this handle addresses.
    pub fn cpu(&self) -> u32 {
        self.cpu
    }

    /// The device path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// CPUs with a directory under `/dev/cpu` (whether or not the msr driver is loaded).
    pub fn cpus() -> io::Result<Vec<u32>> {
        let mut cpus: Vec<u32> = std::fs::read_dir("/dev/cpu")?
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().to_str().and_then(|s| s.parse().ok()))
            .collect();
        cpus.sort_unstable();
        Ok(cpus)
    }

    fn classify(&self, op: Op, address: u32, value: Option<u64>, source: io::Error) -> DevMsrError {
        match source.raw_os_error() {
            Some(libc::EIO) => DevMsrError::Faulted {
                cpu: self.cpu,
                address,
                op,
                value,
            },
            Some(libc::EPERM | libc::EACCES) => DevMsrError::PermissionDenied {
                cpu: self.cpu,
                path: self.path.clone(),
                op,
                address: Some(address),
                source,
            },
            Some(libc::ENXIO | libc::ENODEV) => DevMsrError::DeviceMissing {
                cpu: self.cpu,
                path: self.path.clone(),
                cpu_dir_exists: false,
                source,
            },
            _ => DevMsrError::Io {
                cpu: self.cpu,
                path: self.path.clone(),
                op,
                address: Some(address),
                source,
            },
        }
    }
}

fn classify_open(cpu: u32, path: PathBuf, source: io::Error) -> DevMsrError {
    match source.raw_os_error() {
        Some(libc::ENOENT | libc::ENXIO | libc::ENODEV) => {
            let cpu_dir_exists = path.parent().is_some_and(|d| d.is_dir());
            DevMsrError::DeviceMissing {
                cpu,
                path,
                cpu_dir_exists,
                source,
            }
        }
        Some(libc::EPERM | libc::EACCES) => DevMsrError::PermissionDenied {
            cpu,
            path,
            op: Op::Open,
            address: None,
            source,
        },
        _ => DevMsrError::Io {
            cpu,
            path,
            op: Op::Open,
            address: None,
            source,
        },
    }
}

impl RawMsr for DevMsr {
    type Error = DevMsrError;

    fn read_raw(&mut self, address: u32) -> Result<u64, DevMsrError> {
        let mut buf = [0u8; 8];
        self.file
            .read_exact_at(&mut buf, address as u64)
            .map_err(|e| self.classify(Op::Read, address, None, e))?;
        Ok(u64::from_le_bytes(buf))
    }

    fn write_raw(&mut self, address: u32, value: u64) -> Result<(), DevMsrError> {
        if !self.writable {
            return Err(DevMsrError::ReadOnlyHandle {
                cpu: self.cpu,
                address,
            });
        }
        self.file
            .write_all_at(&value.to_le_bytes(), address as u64)
            .map_err(|e| self.classify(Op::Write, address, Some(value), e))
    }
}
