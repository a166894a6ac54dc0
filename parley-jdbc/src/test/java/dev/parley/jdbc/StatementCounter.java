package dev.parley.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts what a store sends through JDBC, for the SQLite and PostgreSQL backends' append-path tests: a data source or
 * connection wrapped by {@link #wrap} hands out connections and statements wrapped alike, and every {@code execute…}
 * call (one round trip with pgjdbc) and every rollback ({@code rollback()}, or a {@code ROLLBACK} statement) is
 * counted. Thread-safe.
 */
public final class StatementCounter {
    /** The {@code execute…} calls on the wrapped statements since the last {@link #reset}. */
    public final AtomicInteger executed = new AtomicInteger();
    /** The rollbacks, by call or by statement, since the last {@link #reset}. */
    public final AtomicInteger rolledBack = new AtomicInteger();

    /** Sets both counts to zero. */
    public void reset() {
        executed.set(0);
        rolledBack.set(0);
    }

    /** {@code target} (a data source, connection or statement), counted. */
    @SuppressWarnings("unchecked")
    public <T> T wrap(Class<T> type, T target) {
        InvocationHandler handler = (p, method, args) -> {
            if (method.getName().startsWith("execute")) {
                executed.incrementAndGet();
                if (args != null && args.length > 0 && args[0] instanceof String sql
                        && sql.strip().equalsIgnoreCase("ROLLBACK")) {
                    rolledBack.incrementAndGet(); // a rollback sent as a statement (SQLite's dialect)
                }
            } else if (method.getName().equals("rollback")) {
                rolledBack.incrementAndGet();
            }
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (result instanceof Connection c) {
                return wrap(Connection.class, c);
            }
            if (result instanceof PreparedStatement st) {
                return wrap(PreparedStatement.class, st);
            }
            if (result instanceof Statement st) {
                return wrap(Statement.class, st);
            }
            return result;
        };
        return (T) Proxy.newProxyInstance(StatementCounter.class.getClassLoader(), new Class<?>[] {type}, handler);
    }
}
