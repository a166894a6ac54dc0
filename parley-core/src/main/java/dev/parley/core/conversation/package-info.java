/**
 * Reading a conversation out of a log: the per-session store view of panto (see the glossary)
 * ({@link dev.parley.core.conversation.AgentSession}), the entry tree, and the rules that turn a path of entries
 * into a provider-valid sequence of messages.
 */
@NullMarked
package dev.parley.core.conversation;

import org.jspecify.annotations.NullMarked;
