//! The C string buffers of the API: the command read from the host, and the `reply` and `str`
//! buffers written for it. Reads stop at the first NUL or at a cap; writes always leave a NUL
//! within the buffer's size.
//!
//! `str` is the status bar text, which CheckerBoard reads on a timer while `getmove` runs, so
//! it is written as it may be read at any moment: the new terminator goes in first and the text
//! after it from its end backwards, so that a reader always finds a NUL and never bytes that are
//! neither old text nor new (at worst a mix of the two for one refresh), and the last byte of
//! the buffer stays 0 throughout. Only the thread of
//! `getmove` writes it. The bytes are written volatile, so none is left out or merged away.

use std::ffi::c_char;

/// The size of `reply` and of `str` in CheckerBoard's API.
pub const TEXT_SIZE: usize = 1024;

/// The longest command read. The API declares `char command[256]`; newer CheckerBoard passes a
/// `const char *`, and `set gamehist` with a long history of king moves exceeds 256, so the
/// reader follows the string to its NUL, up to this many bytes.
pub const MAX_COMMAND: usize = 4096;

/// The text at `ptr` up to its first NUL, at most `cap` bytes, with bytes that are not UTF-8
/// replaced.
///
/// # Safety
/// `ptr` is readable up to its first NUL or for `cap` bytes, whichever comes first.
pub unsafe fn read(ptr: *const c_char, cap: usize) -> String {
    let mut bytes = Vec::new();
    for i in 0..cap {
        // SAFETY: within the NUL-terminated string or the first `cap` bytes, as promised.
        let b = unsafe { *ptr.add(i) } as u8;
        if b == 0 {
            break;
        }
        bytes.push(b);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Writes `text` into the buffer of `size` bytes at `ptr`, cut to `size - 1` bytes (at a
/// character boundary) and NUL-terminated, in the order that keeps a concurrent reader safe
/// (see the module documentation). Control characters other than newline become spaces.
///
/// # Safety
/// `ptr` is writable for `size` bytes, and `size` is at least 1.
pub unsafe fn write(ptr: *mut c_char, size: usize, text: &str) {
    let mut end = text.len().min(size - 1);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let bytes = text[..end]
        .bytes()
        .map(|b| if b < b' ' && b != b'\n' { b' ' } else { b });
    // SAFETY: every offset written is below `size`.
    unsafe {
        ptr.add(size - 1).write_volatile(0);
        ptr.add(end).write_volatile(0);
        for (i, b) in bytes.enumerate().rev() {
            ptr.add(i).write_volatile(b as c_char);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stop_at_the_nul_or_the_cap() {
        let buf = *b"set hashsize 64\0garbage";
        assert_eq!(
            unsafe { read(buf.as_ptr().cast(), buf.len()) },
            "set hashsize 64"
        );
        let unterminated = [b'a'; 8];
        assert_eq!(unsafe { read(unterminated.as_ptr().cast(), 8) }, "aaaaaaaa");
        let latin1 = *b"caf\xe9\0";
        assert_eq!(unsafe { read(latin1.as_ptr().cast(), 5) }, "caf\u{fffd}");
    }

    #[test]
    fn writes_are_cut_and_terminated() {
        let mut buf = [b'#' as c_char; 8];
        unsafe { write(buf.as_mut_ptr(), 8, "abc") };
        assert_eq!(unsafe { read(buf.as_ptr(), 8) }, "abc");
        assert_eq!(buf[7], 0);
        unsafe { write(buf.as_mut_ptr(), 8, "0123456789") };
        assert_eq!(unsafe { read(buf.as_ptr(), 8) }, "0123456");
        // A two-byte character that would straddle the end is left out whole.
        unsafe { write(buf.as_mut_ptr(), 8, "012345é") };
        assert_eq!(unsafe { read(buf.as_ptr(), 8) }, "012345");
        unsafe { write(buf.as_mut_ptr(), 8, "a\tb\nc\u{1b}") };
        assert_eq!(unsafe { read(buf.as_ptr(), 8) }, "a b\nc ");
        let mut one = [b'x' as c_char; 1];
        unsafe { write(one.as_mut_ptr(), 1, "anything") };
        assert_eq!(one[0], 0);
    }
}
