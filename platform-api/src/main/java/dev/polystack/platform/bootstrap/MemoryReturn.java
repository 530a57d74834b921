package dev.polystack.platform.bootstrap;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import dev.polystack.platform.common.PolystackConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import javax.management.JMException;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lets an idle control plane give back the heap a burst of work took. Left alone the JVM keeps its heap at
 * the high-water mark: after a 10,000-resource deployment or a storm of graph reads the process stayed at
 * 800+ MiB while it held under 100 MiB. So:
 * <ul>
 *     <li>when no collection ran for a whole interval (the process is idle) while more than 64 MiB of heap
 *     is committed and it grew by more than 32 MiB since the last return, one full collection, which returns
 *     what the heap does not hold: for it alone {@code MinHeapFreeRatio=10} and {@code MaxHeapFreeRatio=30}
 *     (manageable flags, so this works for {@code java -jar} as for the image; when the command line chose
 *     them they are left alone), so that the heap shrinks to what it holds plus at most 30 %; the JVM's own
 *     ratios (40 and 70 %) apply again right after. Kept at 10 and 30 all the time, as they were until
 *     4 December, they shrank the heap at every concurrent cycle too: under load G1 kept it at about 1.7 times
 *     what it held (54 MiB for 32), collected every second and started a concurrent cycle at every other
 *     collection. What the heap reports as used is no guide: after a burst of work most of it is garbage no
 *     collection has looked at yet (118 MiB committed and 82 MiB "used" after the benchmark's reads, of which a
 *     full collection kept about 35). Under load collections run all the time and this never does; after it,
 *     not again until the heap has grown;</li>
 *     <li>once per idle period (idle, and collections ran since the last time), the C library is asked to give
 *     back the free memory it keeps ({@code System.trim_native_heap}, the JVM's own diagnostic command, where
 *     the JVM has it: glibc on Linux). Memory the JVM allocated outside the heap and freed (the JIT
 *     compilers' work areas, compression buffers of gzip answers, thread-local buffers) otherwise stays in the
 *     process: 8 to 43 MiB of a control plane's RSS after the benchmark's heavy parts, 28 MiB idle after
 *     start-up.</li>
 * </ul>
 */
@ApplicationScoped
public class MemoryReturn {

    private static final Logger LOG = Logger.getLogger(MemoryReturn.class);

    static final String MIN_FREE = "10";
    static final String MAX_FREE = "30";
    static final String MIN_FREE_FLAG = "MinHeapFreeRatio";
    static final String MAX_FREE_FLAG = "MaxHeapFreeRatio";
    /** Committed heap below which an idle process is not collected: small already. */
    static final long WORTH_RETURNING = 64L * 1024 * 1024;
    /** Growth of the committed heap since the last return that makes an idle process worth collecting again. */
    static final long GROWTH = 32L * 1024 * 1024;

    @Inject
    PolystackConfig config;

    private long collectionsSeen = -1;
    /** The committed heap after the last return: it is not returned again until it has grown since. */
    private long committedAfterReturn;
    /** The collection count when the native heap was last trimmed; -1 before the first trim. */
    private long collectionsAtTrim = -1;
    /** The JVM's own heap free ratios, restored after each idle collection; empty when the command line chose them. */
    private Optional<Ratios> own = Optional.empty();

    /** Heap free ratios, as the JVM's flags spell them. */
    record Ratios(String minFree, String maxFree) {}

    void onStart(@Observes StartupEvent event) {
        if (enabled()) {
            own = ownRatios(vm());
        }
    }

    private static HotSpotDiagnosticMXBean vm() {
        return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    }

    private boolean enabled() {
        Duration interval = config.memory().idleGcInterval();
        return !interval.isZero() && !interval.isNegative();
    }

    @Scheduled(
            every = "${polystack.memory.idle-gc-interval:20s}",
            delayed = "${polystack.memory.idle-gc-interval:20s}",
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void returnIdleHeap() {
        if (!enabled()) {
            return;
        }
        long observed = collections();
        long collections = observed;
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        if (shouldCollect(collectionsSeen, collections, heap.getCommitted(), committedAfterReturn)) {
            long before = heap.getCommitted();
            collectTight();
            committedAfterReturn =
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
            LOG.debugf(
                    "Idle: returned %d MiB of heap (%d MiB committed now)",
                    (before - committedAfterReturn) >> 20, committedAfterReturn >> 20);
            collections = collections();
        }
        if (shouldTrim(collectionsSeen, observed, collections, collectionsAtTrim)) {
            trimNativeHeap().ifPresent(result -> LOG.debugf("Idle: %s", result));
            collectionsAtTrim = collections;
        }
        collectionsSeen = collections;
    }

    /**
     * Idle as this look found it, before its own collection ({@code observed}, the count then, is the last
     * look's), and work happened since the last trim: the count now, with the look's own collection, differs
     * from the one at the trim, or it never trimmed.
     */
    static boolean shouldTrim(long collectionsBefore, long observed, long collectionsNow, long collectionsAtTrim) {
        boolean idle = collectionsBefore >= 0 && observed == collectionsBefore;
        return idle && collectionsNow != collectionsAtTrim;
    }

    private static final String TRIM_OPERATION = "systemTrimNativeHeap";

    /**
     * Asks the JVM to return the C library's free memory to the system; empty when this JVM has no such
     * command (another C library, another JVM) or it failed. Returns the JVM's own report of what it did.
     */
    static Optional<String> trimNativeHeap() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName commands = new ObjectName("com.sun.management:type=DiagnosticCommand");
            boolean present = false;
            for (MBeanOperationInfo operation : server.getMBeanInfo(commands).getOperations()) {
                present |= operation.getName().equals(TRIM_OPERATION);
            }
            if (!present) {
                return Optional.empty();
            }
            Object report = server.invoke(
                    commands, TRIM_OPERATION, new Object[] {new String[0]}, new String[] {String[].class.getName()});
            return Optional.of(String.valueOf(report).strip());
        } catch (JMException | RuntimeException e) {
            LOG.debugf("Could not trim the native heap: %s", e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Idle (no collection since the last look), with a committed heap large enough to be worth a collection
     * that grew since the last return (an idle process with a large live set is collected once, not every
     * interval).
     */
    static boolean shouldCollect(
            long collectionsBefore, long collectionsNow, long committed, long committedAfterReturn) {
        return collectionsBefore >= 0
                && collectionsNow == collectionsBefore
                && committed > WORTH_RETURNING
                && committed - committedAfterReturn > GROWTH;
    }

    private static long collections() {
        long total = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, collector.getCollectionCount());
        }
        return total;
    }

    /** A full collection after which the heap keeps at most 30 % free, when the free ratios are this class's to set. */
    private void collectTight() {
        List<String> set = own.isPresent() ? tighten(vm()) : List.of();
        try {
            System.gc();
        } finally {
            if (!set.isEmpty()) {
                restore(vm(), own.get());
            }
        }
    }

    /** The heap free ratios when the command line left both to the JVM; empty when it chose either. */
    static Optional<Ratios> ownRatios(HotSpotDiagnosticMXBean vm) {
        if (!isDefault(vm, MIN_FREE_FLAG) || !isDefault(vm, MAX_FREE_FLAG)) {
            return Optional.empty();
        }
        return Optional.of(new Ratios(
                vm.getVMOption(MIN_FREE_FLAG).getValue(),
                vm.getVMOption(MAX_FREE_FLAG).getValue()));
    }

    /** Sets the idle collection's ratios; returns what it set, as {@code name=value}. */
    static List<String> tighten(HotSpotDiagnosticMXBean vm) {
        List<String> set = new ArrayList<>();
        // the minimum first: the maximum may never be below it
        if (set(vm, MIN_FREE_FLAG, MIN_FREE)) {
            set.add(MIN_FREE_FLAG + "=" + MIN_FREE);
        }
        if (set(vm, MAX_FREE_FLAG, MAX_FREE)) {
            set.add(MAX_FREE_FLAG + "=" + MAX_FREE);
        }
        return set;
    }

    /** Sets the ratios back to the JVM's own. */
    static void restore(HotSpotDiagnosticMXBean vm, Ratios ratios) {
        // the maximum first: the minimum may never be above it
        set(vm, MAX_FREE_FLAG, ratios.maxFree());
        set(vm, MIN_FREE_FLAG, ratios.minFree());
    }

    private static boolean isDefault(HotSpotDiagnosticMXBean vm, String name) {
        try {
            return vm.getVMOption(name).getOrigin() == VMOption.Origin.DEFAULT;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Sets a flag; false when this JVM does not let it be set. */
    private static boolean set(HotSpotDiagnosticMXBean vm, String name, String value) {
        try {
            vm.setVMOption(name, value);
            return true;
        } catch (IllegalArgumentException | SecurityException e) {
            // another JVM or a locked-down one: it keeps its own behaviour
            LOG.debugf("Could not set %s=%s: %s", name, value, e.getMessage());
            return false;
        }
    }
}
