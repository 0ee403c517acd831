//! The viewer: a static page under `docs/viewer/` that decodes words in the browser by
//! interpreting the dictionary (`dmaspec.json`), with no build step. Its sources live in
//! `codegen/viewer/` as plain files; gen copies them with a stamp so that `generated/`
//! stays the one output tree. The dictionary itself goes in as `dmaspec.js` (written by
//! the JSON emitter), since a page opened from file:// may load a script but not fetch.

use crate::model::Model;
use crate::output::STAMP;

/// The dictionary as a script, beside the page.
pub const DICTIONARY: &str = "docs/viewer/dmaspec.js";

/// `dmaspec.json`'s (compact) text as the script the page loads: `window.DMASPEC = …;`.
pub fn dictionary_script(json: &str) -> String {
    format!("// {STAMP}: dmaspec.json for the viewer\nwindow.DMASPEC = {json};\n")
}

/// The page's files: (name under `docs/viewer/`, source, comment opener and closer).
const SOURCES: [(&str, &str, &str, &str); 5] = [
    (
        "index.html",
        include_str!("../../viewer/index.html"),
        "<!--",
        " -->",
    ),
    (
        "viewer.css",
        include_str!("../../viewer/viewer.css"),
        "/*",
        " */",
    ),
    (
        "decode.js",
        include_str!("../../viewer/decode.js"),
        "//",
        "",
    ),
    (
        "registers.js",
        include_str!("../../viewer/registers.js"),
        "//",
        "",
    ),
    (
        "viewer.js",
        include_str!("../../viewer/viewer.js"),
        "//",
        "",
    ),
];

/// The page's files, each opening with the stamp (in a comment of its language), and
/// `palette.css`: the bit maps' colour per confidence class, so page and SVG agree.
pub fn render(model: &Model) -> Vec<(String, String)> {
    let palette: String = crate::emit::markdown::svg::classes(model)
        .iter()
        .map(|(class, fill)| format!(".class-{class} {{ background: {fill}; }}\n"))
        .collect();
    SOURCES
        .iter()
        .map(|(name, text, open, close)| {
            (
                format!("docs/viewer/{name}"),
                format!("{open} {STAMP} from codegen/viewer/{name}{close}\n{text}"),
            )
        })
        .chain([(
            "docs/viewer/palette.css".to_string(),
            format!("/* {STAMP}: the bit maps' fills (docs/svg/) */\n{palette}"),
        )])
        .collect()
}
