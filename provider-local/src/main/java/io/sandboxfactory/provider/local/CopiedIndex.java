package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Brings the git index of a copied checkout up to date with the copies' own stat data (inode,
 * device, ctime, owner), so the first git command in the copy does not re-read and re-hash every
 * tracked file: a copy has new inodes and ctimes, which git takes as "maybe changed". Only entries
 * whose recorded mtime and size equal the copy's are touched, and the copy is byte for byte with
 * its mtime preserved, so such an entry was as clean in the source as git's own refresh would find
 * it; any other entry is left for git to check. The index file keeps its mtime, so git's racy-entry
 * check sees exactly what it saw in the source. Index versions other than 2 and 3, SHA-256
 * repositories and split indexes are left alone (git then refreshes them itself, only slower).
 */
final class CopiedIndex {

    private static final int SHA1_BYTES = 20;
    /** ctime, mtime (seconds and nanoseconds each), dev, ino, mode, uid, gid, size: 4 bytes each. */
    private static final int STAT_BYTES = 40;

    private CopiedIndex() {
    }

    /** Refreshes {@code checkout/.git/index} when there is one it understands; returns how many entries it updated. */
    static int refresh(Path checkout) throws IOException {
        Path git = checkout.resolve(".git");
        Path index = git.resolve("index");
        if (!Files.isRegularFile(index, LinkOption.NOFOLLOW_LINKS) || usesSha256OrSplitIndex(git)) {
            return 0;
        }
        byte[] bytes = Files.readAllBytes(index);
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        if (bytes.length < 12 + SHA1_BYTES || buffer.getInt(0) != 0x44495243 /* DIRC */) {
            return 0;
        }
        int version = buffer.getInt(4);
        if (version != 2 && version != 3) {
            return 0;
        }
        int entries = buffer.getInt(8);
        int offset = 12;
        int updated = 0;
        for (int i = 0; i < entries; i++) {
            int flags = Short.toUnsignedInt(buffer.getShort(offset + STAT_BYTES + SHA1_BYTES));
            int nameStart = offset + STAT_BYTES + SHA1_BYTES + 2 + (version == 3 && (flags & 0x4000) != 0 ? 2 : 0);
            int nameEnd = nameStart;
            while (bytes[nameEnd] != 0) {
                nameEnd++;
            }
            String name = new String(bytes, nameStart, nameEnd - nameStart, StandardCharsets.UTF_8);
            if (restat(buffer, offset, checkout.resolve(name))) {
                updated++;
            }
            // Entries are NUL-padded to a multiple of 8 bytes, with at least one NUL.
            offset += ((nameEnd - offset) + 8) & ~7;
        }
        if (updated == 0) {
            return 0;
        }
        FileTime modified = Files.getLastModifiedTime(index);
        System.arraycopy(sha1(bytes, bytes.length - SHA1_BYTES), 0, bytes, bytes.length - SHA1_BYTES, SHA1_BYTES);
        // Replaced whole or not at all: a torn index would break the checkout, a stale one only costs time.
        Path fresh = git.resolve("index.sandbox-factory-copy");
        Files.write(fresh, bytes);
        Files.setLastModifiedTime(fresh, modified);
        Files.move(fresh, index, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return updated;
    }

    /** Replaces one entry's ctime, dev, ino, uid and gid with the copy's when its mtime and size are the copy's. */
    private static boolean restat(ByteBuffer buffer, int entry, Path file) {
        Map<String, Object> stat;
        try {
            stat = Files.readAttributes(file, "unix:lastModifiedTime,ctime,dev,ino,uid,gid,size", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
        long[] mtime = split((FileTime) stat.get("lastModifiedTime"));
        long recordedNanos = Integer.toUnsignedLong(buffer.getInt(entry + 12));
        boolean sameMtime = Integer.toUnsignedLong(buffer.getInt(entry + 8)) == (mtime[0] & 0xffffffffL)
                // A git built without nanosecond stat fields records 0 there.
                && (recordedNanos == 0 || recordedNanos == mtime[1]);
        boolean sameSize = Integer.toUnsignedLong(buffer.getInt(entry + 36)) == (((Long) stat.get("size")) & 0xffffffffL);
        if (!sameMtime || !sameSize) {
            return false;
        }
        long[] ctime = split((FileTime) stat.get("ctime"));
        buffer.putInt(entry, (int) ctime[0]);
        buffer.putInt(entry + 4, recordedNanos == 0 ? 0 : (int) ctime[1]);
        buffer.putInt(entry + 16, (int) (long) (Long) stat.get("dev"));
        buffer.putInt(entry + 20, (int) (long) (Long) stat.get("ino"));
        buffer.putInt(entry + 28, (Integer) stat.get("uid"));
        buffer.putInt(entry + 32, (Integer) stat.get("gid"));
        return true;
    }

    private static long[] split(FileTime time) {
        long nanos = time.to(TimeUnit.NANOSECONDS);
        return new long[] {Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L)};
    }

    private static boolean usesSha256OrSplitIndex(Path git) throws IOException {
        Path config = git.resolve("config");
        if (Files.isRegularFile(config) && Files.readString(config, StandardCharsets.UTF_8).toLowerCase(java.util.Locale.ROOT)
                .contains("objectformat")) {
            return true;
        }
        try (var children = Files.list(git)) {
            return children.anyMatch(p -> p.getFileName().toString().startsWith("sharedindex."));
        }
    }

    private static byte[] sha1(byte[] bytes, int length) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-1");
            digest.update(bytes, 0, length);
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JDK", e);
        }
    }
}
