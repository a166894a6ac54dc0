package dev.parley.core;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Objects;

/**
 * Why an I/O operation failed, in words for an error message. The JDK's file-system exceptions often carry nothing but
 * the file's name as their message ({@code AccessDeniedException: /a/b}), so "cannot write /a/b: " followed by the
 * message repeats the name and leaves out the reason; {@link #describe} gives the reason instead. Stateless.
 */
public final class IoErrors {
    private IoErrors() {}

    /**
     * The reason for {@code e}: "permission denied", "no such file or directory", the operating system's reason
     * ("No space left on device"), or, for other exceptions, the message (the class name when there is none).
     *
     * @param e the failure to describe
     * @return the reason, never null or blank
     * @throws NullPointerException if {@code e} is null
     */
    public static String describe(IOException e) {
        Objects.requireNonNull(e, "e");
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "it exists already";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "the directory is not empty";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof FileSystemException fs) {
            String reason = fs.getReason();
            String other = fs.getOtherFile();
            return (reason != null ? reason : e.getClass().getSimpleName()) + (other == null ? "" : " (" + other + ")");
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
