//! Line numbers of byte offsets in a text, looked up by binary search in the offsets of its
//! line breaks. roxmltree's `Document::text_pos_at` counts the line breaks from the start of
//! the text on every call, which made reading a parameter file (one call per element)
//! quadratic in its length: a TORCS track's XML took most of its import time.

/// The offsets of a text's line breaks (`\n`), in order.
#[derive(Clone, Debug)]
pub(crate) struct LineIndex {
    breaks: Vec<usize>,
}

impl LineIndex {
    /// The line breaks of `text`.
    pub(crate) fn new(text: &str) -> Self {
        let breaks = text
            .bytes()
            .enumerate()
            .filter_map(|(i, b)| (b == b'\n').then_some(i))
            .collect();
        Self { breaks }
    }

    /// The 1-based line of the byte at `offset`: one more than the line breaks before it (the
    /// row `roxmltree::Document::text_pos_at` gives).
    pub(crate) fn row(&self, offset: usize) -> u32 {
        let before = self.breaks.partition_point(|&b| b < offset);
        u32::try_from(before).map_or(u32::MAX, |n| n.saturating_add(1))
    }
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

    #[test]
    fn rows_match_roxmltree_at_every_offset() {
        let text = "<params name=\"a\">\n  <section name=\"b\">\n\n    <attnum name=\"c\" val=\"1\"/>\r\n  </section>\n</params>\n";
        let doc = roxmltree::Document::parse(text).expect("parses");
        let lines = LineIndex::new(text);
        for offset in 0..=text.len() {
            assert_eq!(
                lines.row(offset),
                doc.text_pos_at(offset).row,
                "offset {offset}"
            );
        }
    }

    #[test]
    fn a_text_without_breaks_is_all_line_one() {
        let lines = LineIndex::new("abc");
        assert_eq!((lines.row(0), lines.row(3)), (1, 1));
    }
}
