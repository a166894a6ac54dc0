/**
 * Reading a conversation out of a log: the per-session store view of seed {@code 001_5256a591ecc368e7}
 * ({@link dev.parley.core.conversation.AgentSession}), the entry tree, and the rules that turn a path of entries
 * into a provider-valid sequence of messages.
 */
@NullMarked
package dev.parley.core.conversation;

import org.jspecify.annotations.NullMarked;
