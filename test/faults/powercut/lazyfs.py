#!/usr/bin/python3
# A LazyFS-like FUSE file system for the power-cut test: passes everything through to a backing folder, but keeps
# each file's written data in memory until that file is fsynced; "cut" on stdin drops all of it, as a power cut would.
#
#   lazyfs.py BACKING MOUNTPOINT      (prints "ready" once mounted; reads commands on stdin, one a line)
#     cut    drop every unsynced byte, fail every later operation with EIO (the machine is off), print "cut <bytes>"
#     stats  print "stats <fsyncs> <pending bytes>"
#
# The backing folder stands for the disk: what reached it survives. Only file data is held back; names (create,
# rename, unlink, mkdir) go to the backing folder at once, so this models a file system that journals metadata
# eagerly (ext4's data=ordered after a commit) and tests data durability, not directory fsyncs.
import errno
import os
import sys
import threading

from fusepy import FUSE, FuseOSError, Operations

BLOCK = 4096


class Pending:
    """A file's unsynced state: its logical size, the dirty blocks, and how much of the backing data still counts."""

    def __init__(self, size):
        self.size = size
        self.valid = size  # backing bytes past this were cut off by a truncate that is itself not synced yet
        self.blocks = {}


class LazyFS(Operations):
    use_ns = True

    def __init__(self, root):
        self.root = root
        self.mutex = threading.RLock()
        self.pending = {}
        self.fsyncs = 0
        self.dead = False

    # --- helpers ---------------------------------------------------------------------------------------------
    def _real(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def _alive(self):
        if self.dead:
            raise FuseOSError(errno.EIO)

    def _state(self, real):
        p = self.pending.get(real)
        if p is None:
            size = os.stat(real).st_size
            p = self.pending[real] = Pending(size)
        return p

    def _block(self, p, fh, idx):
        blk = p.blocks.get(idx)
        if blk is not None:
            return blk
        start = idx * BLOCK
        keep = max(0, min(BLOCK, p.valid - start, p.size - start))
        data = os.pread(fh, keep, start) if keep else b""
        return bytearray(data) + bytearray(BLOCK - len(data))

    # --- control -----------------------------------------------------------------------------------------------
    def cut(self):
        with self.mutex:
            dropped = sum(len(p.blocks) * BLOCK for p in self.pending.values())
            self.pending.clear()
            self.dead = True
            return dropped

    def stats(self):
        with self.mutex:
            return self.fsyncs, sum(len(p.blocks) * BLOCK for p in self.pending.values())

    # --- FUSE operations ---------------------------------------------------------------------------------------
    def init(self, path):
        print("ready", flush=True)

    def getattr(self, path, fh=None):
        with self.mutex:
            self._alive()
            real = self._real(path)
            try:
                st = os.lstat(real)
            except OSError as e:
                raise FuseOSError(e.errno)
            attrs = {k: getattr(st, k) for k in ("st_mode", "st_nlink", "st_uid", "st_gid", "st_size", "st_ino")}
            for k in ("st_atime", "st_mtime", "st_ctime"):
                attrs[k] = getattr(st, k + "_ns")
            p = self.pending.get(real)
            if p is not None:
                attrs["st_size"] = p.size
            attrs["st_blocks"] = (attrs["st_size"] + 511) // 512
            return attrs

    def access(self, path, mode):
        self._alive()
        if not os.access(self._real(path), mode):
            raise FuseOSError(errno.EACCES)

    def readdir(self, path, fh):
        self._alive()
        return [".", ".."] + os.listdir(self._real(path))

    def statfs(self, path):
        self._alive()
        s = os.statvfs(self._real(path))
        return {k: getattr(s, k) for k in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}

    def _meta(self, fn, *args):
        with self.mutex:
            self._alive()
            try:
                return fn(*args)
            except OSError as e:
                raise FuseOSError(e.errno)

    def mkdir(self, path, mode):
        return self._meta(os.mkdir, self._real(path), mode)

    def rmdir(self, path):
        return self._meta(os.rmdir, self._real(path))

    def chmod(self, path, mode):
        return self._meta(os.chmod, self._real(path), mode)

    def chown(self, path, uid, gid):
        return self._meta(os.chown, self._real(path), uid, gid)

    def utimens(self, path, times=None):
        return self._meta(os.utime, self._real(path), None, times) if times else self._meta(os.utime, self._real(path))

    def readlink(self, path):
        return self._meta(os.readlink, self._real(path))

    def symlink(self, target, source):
        return self._meta(os.symlink, source, self._real(target))

    def unlink(self, path):
        with self.mutex:
            self._meta(os.unlink, self._real(path))
            self.pending.pop(self._real(path), None)

    def rename(self, old, new):
        with self.mutex:
            self._meta(os.rename, self._real(old), self._real(new))
            self.pending.pop(self._real(new), None)
            moved = self.pending.pop(self._real(old), None)
            if moved is not None:
                self.pending[self._real(new)] = moved

    def open(self, path, flags):
        with self.mutex:
            self._alive()
            real = self._real(path)
            try:
                fh = os.open(real, os.O_RDWR)
            except OSError:
                try:
                    fh = os.open(real, flags & ~(os.O_TRUNC | os.O_CREAT | os.O_EXCL))
                except OSError as e:
                    raise FuseOSError(e.errno)
            if flags & os.O_TRUNC:
                self._truncate(real, fh, 0)
            return fh

    def create(self, path, mode, fi=None):
        with self.mutex:
            self._alive()
            try:
                return os.open(self._real(path), os.O_RDWR | os.O_CREAT | os.O_TRUNC, mode)
            except OSError as e:
                raise FuseOSError(e.errno)

    def read(self, path, size, offset, fh):
        with self.mutex:
            self._alive()
            p = self.pending.get(self._real(path))
            if p is None:
                return os.pread(fh, size, offset)
            end = min(offset + size, p.size)
            out = bytearray()
            pos = offset
            while pos < end:
                idx, within = divmod(pos, BLOCK)
                take = min(BLOCK - within, end - pos)
                out += self._block(p, fh, idx)[within:within + take]
                pos += take
            return bytes(out)

    def write(self, path, data, offset, fh):
        with self.mutex:
            self._alive()
            p = self._state(self._real(path))
            pos, i = offset, 0
            while i < len(data):
                idx, within = divmod(pos, BLOCK)
                take = min(BLOCK - within, len(data) - i)
                blk = self._block(p, fh, idx)
                blk[within:within + take] = data[i:i + take]
                p.blocks[idx] = blk
                pos += take
                i += take
            p.size = max(p.size, offset + len(data))
            return len(data)

    def _truncate(self, real, fh, length):
        p = self._state(real)
        for idx in [i for i in p.blocks if i * BLOCK >= length]:
            del p.blocks[idx]
        idx, within = divmod(length, BLOCK)
        if within and idx in p.blocks:
            p.blocks[idx][within:] = bytearray(BLOCK - within)
        p.valid = min(p.valid, length)
        p.size = length

    def truncate(self, path, length, fh=None):
        with self.mutex:
            self._alive()
            real = self._real(path)
            if fh is None:
                fh = os.open(real, os.O_RDWR)
                try:
                    self._truncate(real, fh, length)
                finally:
                    os.close(fh)
            else:
                self._truncate(real, fh, length)

    def fsync(self, path, datasync, fh):
        with self.mutex:
            self._alive()
            self.fsyncs += 1
            real = self._real(path)
            p = self.pending.pop(real, None)
            if p is None:
                return 0
            os.ftruncate(fh, min(p.valid, p.size))
            for idx, blk in sorted(p.blocks.items()):
                start = idx * BLOCK
                os.pwrite(fh, bytes(blk[:max(0, min(BLOCK, p.size - start))]), start)
            os.ftruncate(fh, p.size)
            return 0

    def fsyncdir(self, path, datasync, fh):
        self._alive()
        return 0

    def flush(self, path, fh):
        return 0  # close() does not sync

    def release(self, path, fh):
        os.close(fh)
        return 0


def commands(fs):
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "cut":
            print(f"cut {fs.cut()}", flush=True)
        elif cmd == "stats":
            fsyncs, pending = fs.stats()
            print(f"stats {fsyncs} {pending}", flush=True)


if __name__ == "__main__":
    backing, mountpoint = sys.argv[1], sys.argv[2]
    fs = LazyFS(os.path.realpath(backing))
    threading.Thread(target=commands, args=(fs,), daemon=True).start()
    FUSE(fs, mountpoint, foreground=True, nothreads=False, big_writes=True, no_remote_lock=True, fsname="lazyfs")
