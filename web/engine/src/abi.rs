//! The calling convention between the WebAssembly and its JavaScript module
//! (`web/engine/crownhead_web.js`), written by hand so that building for the browser takes
//! `cargo build` alone, with no bindings generator to install. Only numbers cross the boundary:
//!
//! - **Text in**: the module asks `buffer_alloc(len)` for a buffer, writes the text's UTF-8
//!   there and passes `(ptr, len)`; the call takes the buffer and frees it (`take_text`). A
//!   `ptr` of 0 is an omitted optional argument (a buffer is never at 0).
//! - **Text out**: a call that answers text leaves it in the answer buffer, which the module
//!   reads at once through `answer_ptr` and `answer_len`, before its next call.
//! - **Errors**: a call that fails returns -1 (exports.rs: `FAILED`; every other return value is
//!   not negative) and leaves the error's message as the answer, which the module throws as a
//!   JavaScript `Error`.
//! - **Objects** (`Game`, `Session`) live in a table on this side (`Handles`); the module holds
//!   their handles, numbers from 1, and frees them explicitly (or its `FinalizationRegistry`
//!   does). A stale or unknown handle is an error, never a crash.
//!
//! WebAssembly here has one thread, so the thread-locals below are plain globals.

use std::cell::RefCell;

thread_local! {
    /// The last call's answer.
    static ANSWER: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A buffer of `len` bytes for the module to write a call's text argument into.
#[no_mangle]
pub extern "C" fn buffer_alloc(len: usize) -> *mut u8 {
    let mut buffer = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(len));
    buffer.as_mut_ptr()
}

/// Where the last answer's UTF-8 starts.
#[no_mangle]
pub extern "C" fn answer_ptr() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}

/// The last answer's length in bytes.
#[no_mangle]
pub extern "C" fn answer_len() -> usize {
    ANSWER.with(|a| a.borrow().len())
}

/// The text the module wrote into a buffer from `buffer_alloc(len)`, which is freed here; `None`
/// for a `ptr` of 0. Text that is not UTF-8 (the module's encoder never writes it) is read
/// with replacement characters.
///
/// # Safety
/// `ptr` is 0 or a buffer from `buffer_alloc(len)` not yet taken, with `len` bytes written.
pub unsafe fn take_text(ptr: usize, len: usize) -> Option<String> {
    if ptr == 0 {
        return None;
    }
    // SAFETY: by the contract, a Vec's allocation of capacity `len`, all of it initialised.
    let bytes = unsafe { Vec::from_raw_parts(ptr as *mut u8, len, len) };
    Some(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into()))
}

/// Leaves `text` as the answer.
pub fn set_answer(text: String) {
    ANSWER.with(|a| *a.borrow_mut() = text);
}

/// The objects of one kind that the module holds by handle: slot `h - 1` holds handle `h`.
pub struct Handles<T> {
    slots: Vec<Slot<T>>,
    /// Its name in messages: "Game", "Session".
    kind: &'static str,
}

enum Slot<T> {
    Free,
    /// Lent out for the length of a call (`Handles::with`).
    Busy,
    Held(T),
}

impl<T> Handles<T> {
    /// An empty table of objects called `kind`.
    pub const fn new(kind: &'static str) -> Handles<T> {
        Handles {
            slots: Vec::new(),
            kind,
        }
    }

    /// Keeps `value` and returns its handle (never 0), reusing a freed slot if any.
    pub fn insert(&mut self, value: T) -> u32 {
        let at = match self.slots.iter().position(|s| matches!(s, Slot::Free)) {
            Some(i) => i,
            None => {
                self.slots.push(Slot::Free);
                self.slots.len() - 1
            }
        };
        self.slots[at] = Slot::Held(value);
        at as u32 + 1
    }

    /// Drops the object of `handle`; nothing for a handle that holds none (0, freed, unknown).
    pub fn remove(&mut self, handle: u32) {
        if let Some(slot @ Slot::Held(_)) = self.slot(handle) {
            *slot = Slot::Free;
        }
    }

    fn slot(&mut self, handle: u32) -> Option<&mut Slot<T>> {
        let at = (handle as usize).checked_sub(1)?;
        self.slots.get_mut(at)
    }

    /// Takes the object of `handle` out for a call, or an error naming why there is none.
    pub fn lend(&mut self, handle: u32) -> Result<T, String> {
        let kind = self.kind;
        match self.slot(handle) {
            Some(slot @ Slot::Held(_)) => match std::mem::replace(slot, Slot::Busy) {
                Slot::Held(value) => Ok(value),
                _ => unreachable!("the slot held a value"),
            },
            Some(Slot::Busy) => Err(format!(
                "this {kind} is in use by a call that has not returned"
            )),
            _ => Err(format!("no such {kind} (freed, or never made)")),
        }
    }

    /// Puts back an object lent by `lend`.
    pub fn give_back(&mut self, handle: u32, value: T) {
        if let Some(slot @ Slot::Busy) = self.slot(handle) {
            *slot = Slot::Held(value);
        }
    }
}

/// Runs `f` on the object of `handle` in the table `table`. The object is taken out for the
/// call, so that the table is free meanwhile: a call back into the module from JavaScript
/// during `f` (an output listener making a `Game`) works, and one on this same object is an
/// error rather than a second mutable borrow.
pub fn with<T: 'static, R>(
    table: &'static std::thread::LocalKey<RefCell<Handles<T>>>,
    handle: u32,
    f: impl FnOnce(&mut T) -> Result<R, String>,
) -> Result<R, String> {
    let mut value = table.with(|t| t.borrow_mut().lend(handle))?;
    let result = f(&mut value);
    table.with(|t| t.borrow_mut().give_back(handle, value));
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_reused_and_stale_ones_refused() {
        let mut t = Handles::new("Game");
        assert_eq!(t.insert('a'), 1);
        assert_eq!(t.insert('b'), 2);
        t.remove(1);
        t.remove(1);
        t.remove(0);
        t.remove(99);
        assert_eq!(
            t.lend(1),
            Err("no such Game (freed, or never made)".to_string())
        );
        assert!(t.lend(0).is_err() && t.lend(3).is_err());
        assert_eq!(t.insert('c'), 1);
        assert_eq!(t.lend(2), Ok('b'));
        assert!(t.lend(2).unwrap_err().contains("in use"));
        t.give_back(2, 'b');
        assert_eq!(t.lend(2), Ok('b'));
    }

    #[test]
    fn text_goes_in_and_answers_come_out() {
        let text = "c3-d4 é";
        let ptr = buffer_alloc(text.len());
        // SAFETY: the buffer has `text.len()` bytes of room.
        unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), ptr, text.len()) };
        // SAFETY: a buffer from `buffer_alloc`, all of it written.
        assert_eq!(
            unsafe { take_text(ptr as usize, text.len()) }.as_deref(),
            Some(text)
        );
        // SAFETY: a `ptr` of 0 is an omitted argument.
        assert_eq!(unsafe { take_text(0, 5) }, None);
        let empty = buffer_alloc(0);
        // SAFETY: an empty buffer from `buffer_alloc(0)`.
        assert_eq!(unsafe { take_text(empty as usize, 0) }.as_deref(), Some(""));
        set_answer("bad".to_string());
        assert_eq!(answer_len(), 3);
        set_answer("fine".to_string());
        // SAFETY: the answer buffer holds `answer_len()` bytes at `answer_ptr()`.
        let answer = unsafe { std::slice::from_raw_parts(answer_ptr(), answer_len()) };
        assert_eq!(answer, b"fine");
    }
}
