//! Which columns of a table header hold the offset, width, name and type. A side-by-side
//! table (`| off | w | HEADER | | off | w | EVENTS |`) is one group per offset column.

/// The columns of one byte map within a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub offset: usize,
    /// The offset column gives bits (`| bits | w | field |`), not bytes.
    pub bits: bool,
    pub width: Option<usize>,
    pub name: usize,
    pub ty: Option<usize>,
    /// A register table's access (`R/W`) and reset (`rst`) columns.
    pub access: Option<usize>,
    pub reset: Option<usize>,
    /// A name column headed by something other than "field" (`HEADER`): the item's name.
    pub title: Option<String>,
}

fn plain(h: &str) -> String {
    h.replace(['`', '*'], "").trim().to_ascii_lowercase()
}

fn is_offset(h: &str) -> bool {
    // A relative offset is often headed `+off` (the CSR pages' per-queue tables).
    let h = h.strip_prefix('+').unwrap_or(h);
    matches!(h, "off" | "offset" | "byte" | "bits")
        || h.starts_with("off ")
        || h.starts_with("off(")
}

fn is_width(h: &str) -> bool {
    matches!(h, "w" | "width" | "size" | "bytes" | "len" | "length")
}

fn is_name(h: &str) -> bool {
    h.starts_with("field") || matches!(h, "member" | "name" | "register" | "reg")
}

fn is_access(h: &str) -> bool {
    matches!(h, "r/w" | "rw" | "access" | "acc")
}

fn is_reset(h: &str) -> bool {
    matches!(h, "rst" | "reset" | "reset value")
}

fn is_type(h: &str) -> bool {
    matches!(h, "type" | "c type")
}

/// The byte-map groups of a header row; none when it has no offset column.
pub fn groups(header: &[String]) -> Vec<Group> {
    let heads: Vec<String> = header.iter().map(|h| plain(h)).collect();
    // Each group runs from the first column to the next offset column seen after a name.
    let mut bounds: Vec<(usize, usize)> = Vec::new();
    let (mut start, mut has_offset, mut has_name) = (0, false, false);
    for (i, h) in heads.iter().enumerate() {
        if is_offset(h) && has_offset && has_name {
            bounds.push((start, i));
            (start, has_name) = (i, false);
        }
        has_offset |= is_offset(h);
        has_name |= is_name(h) || (has_offset && !h.is_empty() && !is_offset(h) && !is_width(h));
    }
    bounds.push((start, heads.len()));
    bounds
        .into_iter()
        .filter_map(|(from, to)| group(&heads, header, from, to))
        .collect()
}

fn group(heads: &[String], header: &[String], from: usize, to: usize) -> Option<Group> {
    let cols = from..to;
    let offset = cols.clone().find(|&i| is_offset(&heads[i]))?;
    let width = cols.clone().find(|&i| is_width(&heads[i]));
    let ty = cols.clone().find(|&i| is_type(&heads[i]));
    let access = cols.clone().find(|&i| is_access(&heads[i]));
    let reset = cols.clone().find(|&i| is_reset(&heads[i]));
    let named = cols.clone().find(|&i| is_name(&heads[i]));
    let name = named.or_else(|| {
        (offset + 1..to).find(|&i| {
            !heads[i].is_empty()
                && ![width, ty, access, reset].contains(&Some(i))
                && !is_offset(&heads[i])
        })
    })?;
    Some(Group {
        offset,
        bits: heads[offset] == "bits",
        width,
        name,
        ty,
        access,
        reset,
        title: named
            .is_none()
            .then(|| header[name].replace(['`', '*'], "").trim().to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(s: &str) -> Vec<String> {
        crate::audit::markdown::cells(s)
    }

    #[test]
    fn finds_the_columns_of_each_variant() {
        let g = groups(&header("| off | size | field | C type | meaning |"));
        assert_eq!(
            g,
            [Group {
                offset: 0,
                bits: false,
                width: Some(1),
                name: 2,
                ty: Some(3),
                access: None,
                reset: None,
                title: None
            }]
        );
        let g = groups(&header("| off | w | HEADER | | off | w | EVENTS |"));
        assert_eq!(g.len(), 2);
        assert_eq!((g[1].offset, g[1].name), (4, 6));
        assert_eq!(g[1].title.as_deref(), Some("EVENTS"));
        let g = groups(&header("| Field | Off (16B/20B) | Off (MX) | Type |"));
        assert_eq!((g.len(), g[0].offset, g[0].name), (1, 1, 0));
        assert!(groups(&header("| Op | dec | Encoder |")).is_empty());
        let g = groups(&header(
            "| off | w | R/W | register | role / key bitfields |",
        ));
        assert_eq!(
            (g[0].name, g[0].access, g[0].title.as_deref()),
            (3, Some(2), None)
        );
        let g = groups(&header("| bits | field | rst | bits | field | rst |"));
        assert_eq!((g.len(), g[1].reset), (2, Some(5)));
        // wiki-csr-udma-m2s §4.1's header.
        let g = groups(&header(
            "| `+off` (Q-rel) | Register | Field | Acc | Role |",
        ));
        assert_eq!(
            (g.len(), g[0].offset, g[0].name, g[0].access),
            (1, 0, 1, Some(3))
        );
        assert!(groups(&header("| +w | Register |")).is_empty());
    }
}
