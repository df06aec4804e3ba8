// Notification toasts of the UI checks: VS Code hides an info toast 15 s after it shows unless the pointer rests on it,
// and at load 60-80 a screenshot and a few asserts took longer than that (the button was gone when clicked).
import { ceiling } from './wait.mjs';

/** The toast holding `text`, once shown, with the pointer resting on it so it stays until the check clicks a button. */
export async function heldToast(page, text, timeoutMs) {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
  await toast.waitFor({ timeout: timeoutMs });
  await toast.hover({ timeout: ceiling(10_000) });
  return toast;
}
