//! Reading standard input and files with a bound on what one line (or one game
//! record) may hold, so that endless input (`tigadi probe < /dev/zero`,
//! `tigadi analyze --file /dev/zero`) cannot fill memory.

use std::io::{BufRead, Read};

/// The most bytes one input line may have, its newline not counted: a position
/// string is under 60 bytes and a move under 20, so 4 KiB is room to spare, and what one
/// line can cost in memory stays small.
pub const MAX_LINE_BYTES: usize = 4096;

/// The most bytes a game record may have: a turn takes under 20 bytes, so this is
/// room for over 50,000 turns, and an endless file stops here.
pub const MAX_RECORD_BYTES: u64 = 1 << 20;

/// Reads all of `input` as text, or `Ok(None)` if it has more than `max` bytes
/// (no more than `max + 1` of them are read).
pub fn read_all(input: impl Read, max: u64) -> std::io::Result<Option<String>> {
    let mut text = String::new();
    input.take(max + 1).read_to_string(&mut text)?;
    Ok((text.len() as u64 <= max).then_some(text))
}

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The input has ended.
    End,
    /// A whole line (at most [`MAX_LINE_BYTES`] bytes and its newline).
    Whole,
    /// A line longer than [`MAX_LINE_BYTES`] bytes: its first bytes are in the
    /// buffer, the rest is still unread (see [`skip_line`]).
    TooLong,
}

/// Reads one line into `buf` (cleared first), keeping at most [`MAX_LINE_BYTES`]
/// bytes and its newline: a longer line stops at [`Line::TooLong`] with its
/// first [`MAX_LINE_BYTES`] bytes read.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Line> {
    buf.clear();
    loop {
        let available = fill(input)?;
        if available.is_empty() {
            return Ok(if buf.is_empty() {
                Line::End
            } else {
                Line::Whole
            });
        }
        let room = MAX_LINE_BYTES - buf.len();
        match available.iter().position(|&b| b == b'\n') {
            Some(i) if i <= room => {
                buf.extend_from_slice(&available[..=i]);
                input.consume(i + 1);
                return Ok(Line::Whole);
            }
            // Full, and more than a newline follows.
            _ if room == 0 => return Ok(Line::TooLong),
            _ => {
                let take = available.len().min(room);
                buf.extend_from_slice(&available[..take]);
                input.consume(take);
            }
        }
    }
}

/// The first bytes of a line longer than [`MAX_LINE_BYTES`] (`kept`, the part
/// read) as an error message quotes them: like [`tigadi_rules::notation::shown`],
/// saying that the line is longer than what was kept rather than giving the
/// kept part's length as the line's.
pub fn shown_cut(kept: &str) -> String {
    let prefix: String = kept.chars().take(40).collect();
    format!("{prefix}… (more than {MAX_LINE_BYTES} bytes)")
}

/// Reads and drops the rest of a line (through its newline, or to the end of the
/// input) without keeping it.
pub fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let available = fill(input)?;
        if available.is_empty() {
            return Ok(());
        }
        match available.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = available.len();
                input.consume(n);
            }
        }
    }
}

/// The buffered input (`fill_buf`), tried again when a signal interrupted the read.
fn fill(input: &mut impl BufRead) -> std::io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            // The end of the input: not read again (a terminal would wait for
            // more after Ctrl-D).
            Ok([]) => return Ok(&[]),
            Ok(_) => break,
        }
    }
    // Data is buffered: this call returns it without reading (returning the first
    // call's slice from inside the loop is what the borrow checker refuses).
    input.fill_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines around the bound, and one far longer: each whole line comes back as
    /// it was, a long one as its first MAX_LINE_BYTES bytes and then the next line.
    #[test]
    fn lines_are_cut_at_the_bound_and_the_next_line_follows() {
        for (len, whole) in [
            (MAX_LINE_BYTES - 1, true),
            (MAX_LINE_BYTES, true),
            (MAX_LINE_BYTES + 1, false),
            (10 * MAX_LINE_BYTES + 7, false),
        ] {
            let mut text = vec![b'x'; len];
            text.extend_from_slice(b"\nnext\nlast");
            // A small buffer, so a line spans many reads.
            let mut input = std::io::BufReader::with_capacity(100, &text[..]);
            let mut buf = Vec::new();
            let got = read_line(&mut input, &mut buf).unwrap();
            if whole {
                assert_eq!((got, buf.len()), (Line::Whole, len + 1));
            } else {
                assert_eq!((got, buf.len()), (Line::TooLong, MAX_LINE_BYTES));
                skip_line(&mut input).unwrap();
            }
            assert_eq!(read_line(&mut input, &mut buf).unwrap(), Line::Whole);
            assert_eq!(buf, b"next\n");
            assert_eq!(read_line(&mut input, &mut buf).unwrap(), Line::Whole);
            assert_eq!(buf, b"last");
            assert_eq!(read_line(&mut input, &mut buf).unwrap(), Line::End);
        }
    }

    /// A text of up to the bound is read whole; one byte more, and it is refused.
    #[test]
    fn read_all_stops_past_the_bound() {
        let text = "d5 g7\n".repeat(100);
        let n = text.len() as u64;
        assert_eq!(read_all(text.as_bytes(), n).unwrap(), Some(text.clone()));
        assert_eq!(read_all(text.as_bytes(), n - 1).unwrap(), None);
        // An endless source ends at the bound.
        assert_eq!(read_all(std::io::repeat(b'x'), 1000).unwrap(), None);
    }

    /// A last line without a newline may use the whole bound.
    #[test]
    fn a_last_line_of_exactly_the_bound_is_whole() {
        let text = vec![b'x'; MAX_LINE_BYTES];
        let mut input = std::io::BufReader::with_capacity(100, &text[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Line::Whole);
        assert_eq!(buf, text);
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Line::End);
    }
}
