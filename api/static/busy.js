// A button busy while its request is in flight. It stays a real, focusable button
// (aria-disabled, not disabled: a disabled button drops the keyboard focus to the
// page, and the next Enter goes nowhere), so its handler asks isBusy() and does
// nothing while it is.

/** Mark ``button`` busy (or free again). */
export function setBusy(button, busy) {
  if (busy) button.setAttribute("aria-disabled", "true");
  else button.removeAttribute("aria-disabled");
}

/** Whether ``button`` is busy: a press then does nothing. */
export function isBusy(button) {
  return button.getAttribute("aria-disabled") === "true";
}
