/**
 * Push notifications: which webhook URLs the server may call (public addresses only, unless the
 * operator allows private networks), the delivery pinned to the checked addresses, and the
 * retrying sender that posts each task event in order.
 *
 * Imported by the app's wiring and handler/ (to refuse a webhook at config time). It imports
 * nothing of ours outside this folder.
 */
export { RetryingPushSender, type PushSenderOptions } from "./sender.js";
export { assertPushTarget, checkWebhookUrl, pushTargetPolicy } from "./target.js";
export { postPinned, type PostWebhook } from "./webhook-post.js";
