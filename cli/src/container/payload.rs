//! The payload after the header: `data_size` bytes, hashed as they stream by, unpacked (gzip
//! for pkg_version 2) and walked as a tar the way the loader's libarchive walk does
//! (directories skipped, a leading `./` stripped, `wavegraph-bin.json` dropped), in bounded
//! memory: no temporary file, every limit a clear error.

use std::io::{self, Read};

use md5::Md5;
use sha2::{Digest as _, Sha256};

use super::header::Package;

/// The bounds on what one NEFF may unpack to. The real one unpacks 19 members, 20,480 bytes.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Tar entries, directories included.
    pub members: usize,
    /// Bytes of one member.
    pub member_bytes: u64,
    /// Bytes of one JSON member (parsed whole).
    pub json_bytes: u64,
    /// Bytes the payload unpacks to, tar blocks and padding included.
    pub unpacked_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            members: 4096,
            member_bytes: 64 << 20,
            json_bytes: 8 << 20,
            unpacked_bytes: 256 << 20,
        }
    }
}

/// What a tar entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    File,
    /// Skipped by the loader (`AE_IFDIR`).
    Dir,
    /// Any other typeflag (links, devices): listed, not kept.
    Other(u8),
}

/// One tar member, named as the loader names it.
#[derive(Debug, Clone)]
pub struct Member {
    pub name: String,
    pub kind: EntryKind,
    pub size: u64,
    /// Its bytes, for a regular file the loader keeps.
    pub data: Option<Vec<u8>>,
    /// Why the loader drops it, if it does.
    pub dropped: Option<&'static str>,
}

/// The unpacked payload.
#[derive(Debug, Clone)]
pub struct Payload {
    pub members: Vec<Member>,
    /// Bytes the payload unpacked to.
    pub unpacked: u64,
    /// The digest computed over the `data_size` payload bytes.
    pub digest: Vec<u8>,
}

/// The debug side-file the loader drops whatever its directory (an 18-byte suffix compare).
const WAVEGRAPH: &str = "wavegraph-bin.json";

enum Hasher {
    Md5(Md5),
    Sha256(Sha256),
}

impl Hasher {
    fn update(&mut self, b: &[u8]) {
        match self {
            Hasher::Md5(h) => h.update(b),
            Hasher::Sha256(h) => h.update(b),
        }
    }

    fn finish(self) -> Vec<u8> {
        match self {
            Hasher::Md5(h) => h.finalize().to_vec(),
            Hasher::Sha256(h) => h.finalize().to_vec(),
        }
    }
}

/// The `data_size` bytes after the header, hashed as they are read.
struct Window<'a> {
    inner: &'a mut dyn Read,
    left: u64,
    read: u64,
    hasher: Hasher,
    truncated: bool,
}

impl Read for Window<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = loop {
            match self.inner.read(&mut buf[..want]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => break other?,
            }
        };
        if n == 0 {
            self.truncated = true;
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "truncated"));
        }
        self.hasher.update(&buf[..n]);
        self.left -= n as u64;
        self.read += n as u64;
        Ok(n)
    }
}

/// A reader that refuses to give more than `limit` bytes in all.
struct Bounded<R> {
    inner: R,
    count: u64,
    limit: u64,
    over: bool,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        if self.count > self.limit {
            self.over = true;
            return Err(io::Error::other("unpacked size limit"));
        }
        Ok(n)
    }
}

/// Why a payload was refused, and its digest when the whole window could still be hashed
/// (the loader checks the digest before it unpacks: a mismatch is the refusal to report).
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub digest: Option<Vec<u8>>,
}

/// Reads the `data_size` payload bytes from `input`, unpacks and walks them.
pub fn unpack(
    input: &mut dyn Read,
    data_size: u64,
    package: Package,
    limits: &Limits,
) -> Result<Payload, Failure> {
    let hasher = match package {
        Package::RawTar => Hasher::Sha256(Sha256::new()),
        Package::GzipTar => Hasher::Md5(Md5::new()),
    };
    let mut window = Window {
        inner: input,
        left: data_size,
        read: 0,
        hasher,
        truncated: false,
    };
    let walked = match package {
        Package::RawTar => walk_bounded(&mut window, limits, "tar"),
        Package::GzipTar => {
            let mut gz = flate2::read::GzDecoder::new(&mut window);
            walk_bounded(&mut gz, limits, "gzip payload")
        }
    };
    // The rest of the window (after the gzip member, the tar's padding, or where the walk
    // stopped) is hashed too: constant memory, as long as the input.
    let drained = match window.truncated {
        true => Ok(0),
        false => io::copy(&mut window, &mut io::sink()),
    };
    let unread = |message| {
        Err(Failure {
            message,
            digest: None,
        })
    };
    if window.truncated {
        return unread(format!(
            "truncated payload: data_size is {data_size} bytes, the input ends after {}",
            window.read
        ));
    }
    if let Err(e) = drained {
        return unread(format!("cannot read the payload: {e}"));
    }
    let digest = window.hasher.finish();
    match walked {
        Ok((members, unpacked)) => Ok(Payload {
            members,
            unpacked,
            digest,
        }),
        Err(message) => Err(Failure {
            message,
            digest: Some(digest),
        }),
    }
}

/// Walks the tar in `stream` within `limits.unpacked_bytes`, then reads it to its end (so
/// the gzip trailer is checked and a bomb past the tar's end is still refused).
fn walk_bounded(
    stream: &mut dyn Read,
    limits: &Limits,
    what: &str,
) -> Result<(Vec<Member>, u64), String> {
    let mut bounded = Bounded {
        inner: stream,
        count: 0,
        limit: limits.unpacked_bytes,
        over: false,
    };
    let result =
        walk(&mut bounded, limits).and_then(|m| match io::copy(&mut bounded, &mut io::sink()) {
            Ok(_) => Ok(m),
            Err(e) => Err(Refusal::Io(e)),
        });
    match result {
        Ok(members) => Ok((members, bounded.count)),
        Err(_) if bounded.over => Err(format!(
            "the payload unpacks to more than {} bytes: refused (limit)",
            limits.unpacked_bytes
        )),
        Err(Refusal::Limit(msg)) => Err(msg),
        Err(Refusal::Io(e)) => Err(format!("bad {what}: {e}")),
    }
}

enum Refusal {
    Limit(String),
    Io(io::Error),
}

impl From<io::Error> for Refusal {
    fn from(e: io::Error) -> Self {
        Refusal::Io(e)
    }
}

fn walk(stream: &mut dyn Read, limits: &Limits) -> Result<Vec<Member>, Refusal> {
    let mut archive = tar::Archive::new(stream);
    let mut members = Vec::new();
    for entry in archive.entries()? {
        let mut entry = entry?;
        if members.len() == limits.members {
            return Err(Refusal::Limit(format!(
                "more than {} tar members: refused (limit)",
                limits.members
            )));
        }
        let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let name = raw.strip_prefix("./").unwrap_or(&raw).to_string();
        let size = entry.header().size()?;
        let flag = entry.header().entry_type().as_byte();
        let kind = match flag {
            b'0' | 0 | b'7' => EntryKind::File,
            b'5' => EntryKind::Dir,
            other => EntryKind::Other(other),
        };
        let json = name.ends_with(".json");
        let (limit, what) = if json {
            (limits.json_bytes, "JSON member")
        } else {
            (limits.member_bytes, "member")
        };
        if size > limit {
            return Err(Refusal::Limit(format!(
                "{what} `{}` is {size} bytes, more than {limit}: refused (limit)",
                dmaspec::names::echo(&name)
            )));
        }
        let dropped = (kind == EntryKind::File && name.ends_with(WAVEGRAPH))
            .then_some("the loader drops the wavegraph-bin.json debug side-file");
        let data = if kind == EntryKind::File && dropped.is_none() {
            let mut data = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
            entry.read_to_end(&mut data)?;
            Some(data)
        } else {
            None
        };
        members.push(Member {
            name,
            kind,
            size,
            data,
            dropped,
        });
    }
    Ok(members)
}
