package dev.polystack.runner;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The directory that holds the job workspaces, owned by one agent process at a time through a lock file.
 * Whatever else is in it when an agent starts was left by a process that ended without cleaning up
 * (kill -9, a crash, a power loss): plan files and provider caches of jobs long failed as "runner lost".
 */
public final class WorkRoot implements AutoCloseable {

    static final String LOCK_FILE = ".agent.lock";

    private final Path dir;
    private final FileChannel channel;
    private final FileLock lock;

    private WorkRoot(Path dir, FileChannel channel, FileLock lock) {
        this.dir = dir;
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the directory for this process; refuses when another live agent has it. */
    public static WorkRoot claim(Path dir) {
        try {
            Files.createDirectories(dir);
            FileChannel channel =
                    FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw new AgentConfig.ConfigException("another agent process uses the work directory " + dir
                        + "; give each agent its own --work-dir");
            }
            return new WorkRoot(dir, channel, lock);
        } catch (IOException e) {
            throw new AgentConfig.ConfigException("cannot use the work directory " + dir + ": " + e.getMessage());
        }
    }

    /** Removes what an earlier process left; returns the names of the entries removed. */
    public List<String> removeLeftovers() {
        List<String> removed = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path entry : entries.filter(p -> !p.getFileName().toString().equals(LOCK_FILE))
                    .sorted()
                    .toList()) {
                Workspace.delete(entry);
                removed.add(entry.getFileName().toString());
            }
        } catch (IOException e) {
            ControlPlane.log().warning("could not clean the work directory " + dir + ": " + e.getMessage());
        }
        return removed;
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
