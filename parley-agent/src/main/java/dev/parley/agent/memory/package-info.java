/**
 * Chat memory for agent frameworks on a Parley store: the engine under the LangChain4j {@code ChatMemoryStore} and
 * the Spring AI {@code ChatMemoryRepository} adapters. Those interfaces hand the store the whole list of messages on
 * every change; {@link dev.parley.agent.memory.MemoryLog} appends only what is new to the message log and keeps the
 * list the framework last set (its <em>view</em>) as a pointer into that log, so the history a window evicts stays
 * in the log and an append costs the same at message 2,000 as at message 2. See {@code docs/09-framework-memory.md}.
 */
@NullMarked
package dev.parley.agent.memory;

import org.jspecify.annotations.NullMarked;
