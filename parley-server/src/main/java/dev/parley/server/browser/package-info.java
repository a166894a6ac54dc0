/**
 * The session browser: HTML pages over a store, rendered by jte templates ({@code src/main/jte}, precompiled to
 * Java at build time) and enhanced by htmx. {@link dev.parley.server.browser.Browser} holds the handlers (declared in
 * the server's one route table); {@link dev.parley.server.browser.Views} the values the templates render, public only
 * because the generated templates live in another package. Not API. See {@code docs/10-session-browser.md}.
 */
@NullMarked
package dev.parley.server.browser;

import org.jspecify.annotations.NullMarked;
