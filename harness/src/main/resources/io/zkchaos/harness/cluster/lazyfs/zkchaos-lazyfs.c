/*
 * zkchaos-lazyfs: a FUSE file system that holds every write in memory until the file is fsynced, so that a
 * crash can lose what was written but not fsynced (the idea of Jepsen's LazyFS). Built by zk-chaos with
 *   gcc -O2 -Wall -o zkchaos-lazyfs zkchaos-lazyfs.c $(pkg-config --cflags --libs fuse3)
 *
 * Usage: zkchaos-lazyfs <backing-dir> <mount-point> [marker ...]
 *   Mounts <backing-dir> at <mount-point> and serves it in the foreground until it is unmounted or gets SIGTERM /
 *   SIGINT (then it unmounts). Markers (e.g. -Dzkchaos.run=...) are ignored: they identify the process to the
 *   harness's reaper. Requests are served by libfuse's threads one at a time (one lock around every operation),
 *   except the extra delay of a slow fsync, which holds no lock: the rest of the file system, and the control
 *   file, stay served meanwhile.
 *
 * Semantics:
 *   - File data written through the mount stays in this process's memory (4 KiB pages, per inode of the backing
 *     file) until fsync or fdatasync of that file writes the file's pages and its size to the backing file and
 *     fsyncs it. Reads see the written data (read-your-writes), as a page cache would.
 *   - Metadata operations (create, mkdir, unlink, rename, chmod, link, symlink) go to the backing directory at
 *     once and are kept: as if every directory were always synced. Only file contents and sizes are lazy.
 *   - The control file "/.zkchaos-lazyfs" at the root of the mount (hidden from listings) takes commands, one per
 *     write; reading it gives counters and the faults in force as "key value" lines:
 *       lose            drops every un-fsynced page and size change of every file (what a power failure does to
 *                       the page cache)
 *       tear SEED       a power failure in the middle of writing back: of each file's bytes written and not
 *                       fsynced, a seeded prefix in file order (at least one byte, never all) reaches the disk,
 *                       the rest is dropped, as "lose" does
 *       sync            writes every file as fsync would
 *       fault eio-write every write(2) of a file fails with EIO (nothing of it is held)
 *       fault eio-fsync every fsync(2)/fdatasync(2) fails with EIO; what it would have written stays held, and a
 *                       later fsync, once the fault is cleared, writes it
 *       fault enospc    a write that needs space fails with ENOSPC: past the file's end, or into a part of it
 *                       that holds no data yet (a hole, as in ZooKeeper's preallocated log); overwriting what a
 *                       file holds still works
 *       fault slow-fsync MIN MAX SEED
 *                       every fsync waits an extra MIN..MAX ms first, each drawn from SEED in turn
 *       clear           ends every fault (the disk is repaired); what was held is still held
 *     Faults add up ("fault eio-fsync" then "fault slow-fsync ..." holds both) and hold until "clear".
 */
#define _GNU_SOURCE /* SEEK_DATA */
#define FUSE_USE_VERSION 31

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define PBUF (2 * PATH_MAX + 64) /* a backing path: the backing directory and a path below the mount */
#define BUCKETS 256
#define CONTROL "/.zkchaos-lazyfs"
#define CONTROL_FH ((uint64_t) -1)

struct page {
    uint64_t index;
    struct page *next;
    uint16_t lo, hi; /* the bytes [lo, hi) of the page were written since it became dirty (lo >= hi: none) */
    unsigned char data[PAGE];
};

/* The lazy state of one backing inode: its dirty pages and its size as the writers see it. */
struct lfile {
    ino_t ino;
    dev_t dev;
    int fd;               /* the backing file, read-write, owned by this struct */
    int refs;             /* open handles */
    int unlinked;         /* no longer reachable by inode number */
    off_t size;           /* logical size, valid when size_dirty */
    int size_dirty;
    size_t pages;
    struct page *bucket[BUCKETS];
    struct lfile *next;
};

static char backing[PATH_MAX];
static struct lfile *files;
static unsigned long long st_writes, st_fsyncs, st_losses, st_lost_pages, st_lost_sizes, st_synced_pages;
static unsigned long long st_failed_writes, st_failed_fsyncs, st_full_writes, st_slowed_fsyncs, st_slow_ms;
static unsigned long long st_tears, st_torn_files, st_torn_kept_bytes, st_torn_dropped_bytes;
static char control_out[2048];

/* The disk faults in force (the control file's "fault" commands; "clear" ends them all). */
static int fault_eio_write, fault_eio_fsync, fault_enospc, fault_slow_fsync;
static long slow_min_ms, slow_max_ms;
static uint64_t slow_state;

/* One lock around every operation: libfuse serves requests on several threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* splitmix64: the seeded draws of the faults (slow fsyncs, torn writes) */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void full(char *out, const char *path) {
    snprintf(out, PBUF, "%s%s", backing, path ? path : "/.zkchaos-lazyfs-unlinked");
}

static struct lfile *find(dev_t dev, ino_t ino) {
    for (struct lfile *f = files; f; f = f->next) {
        if (!f->unlinked && f->ino == ino && f->dev == dev) {
            return f;
        }
    }
    return NULL;
}

static struct page *page_of(struct lfile *f, uint64_t index) {
    for (struct page *p = f->bucket[index % BUCKETS]; p; p = p->next) {
        if (p->index == index) {
            return p;
        }
    }
    return NULL;
}

static off_t backing_size(struct lfile *f) {
    struct stat st;
    return fstat(f->fd, &st) == 0 ? st.st_size : 0;
}

static off_t logical_size(struct lfile *f) {
    return f->size_dirty ? f->size : backing_size(f);
}

static void drop_pages(struct lfile *f) {
    for (int b = 0; b < BUCKETS; b++) {
        struct page *p = f->bucket[b];
        while (p) {
            struct page *n = p->next;
            free(p);
            p = n;
        }
        f->bucket[b] = NULL;
    }
    f->pages = 0;
}

static void release_file(struct lfile *f) {
    if (f->refs > 0 || (!f->unlinked && (f->pages > 0 || f->size_dirty))) {
        return;
    }
    for (struct lfile **pp = &files; *pp; pp = &(*pp)->next) {
        if (*pp == f) {
            *pp = f->next;
            break;
        }
    }
    drop_pages(f);
    close(f->fd);
    free(f);
}

/* The page at index, loaded from the backing file (zeros past its end) when it is not dirty yet. */
static struct page *dirty_page(struct lfile *f, uint64_t index) {
    struct page *p = page_of(f, index);
    if (p) {
        return p;
    }
    p = calloc(1, sizeof *p);
    if (!p) {
        return NULL;
    }
    p->index = index;
    p->lo = PAGE;
    p->hi = 0;
    off_t from = (off_t) index * PAGE;
    off_t limit = logical_size(f);
    ssize_t want = from >= limit ? 0 : (limit - from < PAGE ? limit - from : PAGE);
    ssize_t got = 0;
    while (got < want) {
        ssize_t n = pread(f->fd, p->data + got, want - got, from + got);
        if (n <= 0) {
            break;
        }
        got += n;
    }
    p->next = f->bucket[index % BUCKETS];
    f->bucket[index % BUCKETS] = p;
    f->pages++;
    return p;
}

/* Writes the file's pages and size to the backing file and fsyncs it. */
static int flush_file(struct lfile *f) {
    off_t size = logical_size(f);
    for (int b = 0; b < BUCKETS; b++) {
        for (struct page *p = f->bucket[b]; p; p = p->next) {
            off_t from = (off_t) p->index * PAGE;
            if (from >= size) {
                continue;
            }
            size_t len = size - from < PAGE ? (size_t) (size - from) : PAGE;
            size_t done = 0;
            while (done < len) {
                ssize_t n = pwrite(f->fd, p->data + done, len - done, from + done);
                if (n < 0) {
                    return -errno;
                }
                done += n;
            }
            st_synced_pages++;
        }
    }
    if (backing_size(f) != size && ftruncate(f->fd, size) < 0) {
        return -errno;
    }
    if (fsync(f->fd) < 0) {
        return -errno;
    }
    drop_pages(f);
    f->size_dirty = 0;
    return 0;
}

static void lose_all(void) {
    st_losses++;
    for (struct lfile *f = files; f;) {
        struct lfile *n = f->next;
        st_lost_pages += f->pages;
        st_lost_sizes += f->size_dirty ? 1 : 0;
        drop_pages(f);
        f->size_dirty = 0;
        release_file(f);
        f = n;
    }
}

static int by_index(const void *a, const void *b) {
    uint64_t x = (*(struct page *const *) a)->index, y = (*(struct page *const *) b)->index;
    return x < y ? -1 : x > y;
}

/* One file's written, un-fsynced bytes, in file order: the pages, and their written ranges clipped to its size. */
static size_t written_pages(struct lfile *f, struct page **out, off_t size) {
    size_t n = 0;
    for (int b = 0; b < BUCKETS; b++) {
        for (struct page *p = f->bucket[b]; p; p = p->next) {
            off_t from = (off_t) p->index * PAGE;
            if (p->lo < p->hi && from + p->lo < size) {
                out[n++] = p;
            }
        }
    }
    qsort(out, n, sizeof *out, by_index);
    return n;
}

/* Writes a seeded prefix (at least one byte, never all) of the file's written, un-fsynced bytes, in file order,
 * to the backing file: a write-back cut short by a power failure. The rest is dropped by the caller. */
static void tear_file(struct lfile *f, uint64_t *state) {
    if (f->pages == 0) {
        return;
    }
    struct page **pages = malloc(f->pages * sizeof *pages);
    if (!pages) {
        return;
    }
    off_t size = logical_size(f);
    size_t n = written_pages(f, pages, size);
    unsigned long long total = 0;
    for (size_t i = 0; i < n; i++) {
        off_t from = (off_t) pages[i]->index * PAGE;
        off_t hi = from + pages[i]->hi < size ? pages[i]->hi : size - from;
        total += (unsigned long long) (hi - pages[i]->lo);
    }
    if (total >= 2) {
        unsigned long long keep = 1 + next_random(state) % (total - 1);
        unsigned long long left = keep;
        for (size_t i = 0; i < n && left > 0; i++) {
            struct page *p = pages[i];
            off_t from = (off_t) p->index * PAGE;
            off_t hi = from + p->hi < size ? p->hi : size - from;
            size_t len = (size_t) (hi - p->lo) < left ? (size_t) (hi - p->lo) : (size_t) left;
            size_t done = 0;
            while (done < len) {
                ssize_t w = pwrite(f->fd, p->data + p->lo + done, len - done, from + p->lo + done);
                if (w <= 0) {
                    break;
                }
                done += w;
            }
            left -= len;
        }
        fsync(f->fd);
        st_torn_files++;
        st_torn_kept_bytes += keep;
        st_torn_dropped_bytes += total - keep;
    }
    free(pages);
}

/* A power failure: "lose", after tearing each file's un-fsynced tail when tear_state is not NULL. */
static void power_failure(uint64_t *tear_state) {
    if (tear_state) {
        st_tears++;
        for (struct lfile *f = files; f; f = f->next) {
            tear_file(f, tear_state);
        }
    }
    lose_all();
}

static int sync_all(void) {
    int rc = 0;
    for (struct lfile *f = files; f;) {
        struct lfile *n = f->next;
        int r = flush_file(f);
        if (r < 0) {
            rc = r;
        }
        release_file(f);
        f = n;
    }
    return rc;
}

static size_t dirty_bytes(void) {
    size_t total = 0;
    for (struct lfile *f = files; f; f = f->next) {
        total += f->pages * PAGE;
    }
    return total;
}

static void render_control(void) {
    size_t open = 0;
    for (struct lfile *f = files; f; f = f->next) {
        open++;
    }
    snprintf(control_out, sizeof control_out,
             "writes %llu\nfsyncs %llu\nsynced_pages %llu\nlosses %llu\nlost_pages %llu\nlost_sizes %llu\n"
             "dirty_bytes %zu\ntracked_files %zu\n"
             "fault_eio_write %d\nfault_eio_fsync %d\nfault_enospc %d\nfault_slow_fsync %d\n"
             "slow_fsync_min_ms %ld\nslow_fsync_max_ms %ld\n"
             "failed_writes %llu\nfailed_fsyncs %llu\nfull_writes %llu\nslowed_fsyncs %llu\nslow_fsync_ms %llu\n"
             "tears %llu\ntorn_files %llu\ntorn_kept_bytes %llu\ntorn_dropped_bytes %llu\n",
             st_writes, st_fsyncs, st_synced_pages, st_losses, st_lost_pages, st_lost_sizes, dirty_bytes(), open,
             fault_eio_write, fault_eio_fsync, fault_enospc, fault_slow_fsync,
             fault_slow_fsync ? slow_min_ms : 0, fault_slow_fsync ? slow_max_ms : 0,
             st_failed_writes, st_failed_fsyncs, st_full_writes, st_slowed_fsyncs, st_slow_ms,
             st_tears, st_torn_files, st_torn_kept_bytes, st_torn_dropped_bytes);
}

/* Whether writing [off, off + size) needs space the file does not have yet: past its end, or a page that neither
 * is held dirty here nor holds data on the backing file (a hole, or past the backing end). */
static int needs_space(struct lfile *f, off_t off, size_t size) {
    if (size == 0) {
        return 0;
    }
    off_t end = off + (off_t) size;
    if (end > logical_size(f)) {
        return 1;
    }
    off_t backing_end = backing_size(f);
    for (uint64_t index = off / PAGE; (off_t) index * PAGE < end; index++) {
        if (page_of(f, index)) {
            continue;
        }
        off_t from = (off_t) index * PAGE;
        if (from >= backing_end) {
            return 1;
        }
        off_t data = lseek(f->fd, from, SEEK_DATA);
        if (data < 0 ? errno == ENXIO : data >= from + PAGE) {
            return 1;
        }
    }
    return 0;
}

/* The control file's commands (see the top of this file). */
static int control(const char *buf, size_t size) {
    char cmd[256];
    size_t n = size < sizeof cmd - 1 ? size : sizeof cmd - 1;
    memcpy(cmd, buf, n);
    cmd[n] = '\0';
    char *nl = strchr(cmd, '\n');
    if (nl) {
        *nl = '\0';
    }
    unsigned long long seed;
    long least, most;
    if (strcmp(cmd, "lose") == 0) {
        power_failure(NULL);
    } else if (sscanf(cmd, "tear %llu", &seed) == 1) {
        uint64_t state = seed;
        power_failure(&state);
    } else if (strcmp(cmd, "sync") == 0) {
        int rc = sync_all();
        if (rc < 0) {
            return rc;
        }
    } else if (strcmp(cmd, "fault eio-write") == 0) {
        fault_eio_write = 1;
    } else if (strcmp(cmd, "fault eio-fsync") == 0) {
        fault_eio_fsync = 1;
    } else if (strcmp(cmd, "fault enospc") == 0) {
        fault_enospc = 1;
    } else if (sscanf(cmd, "fault slow-fsync %ld %ld %llu", &least, &most, &seed) == 3) {
        if (least < 0 || most < least) {
            return -EINVAL;
        }
        fault_slow_fsync = 1;
        slow_min_ms = least;
        slow_max_ms = most;
        slow_state = seed;
    } else if (strcmp(cmd, "clear") == 0) {
        fault_eio_write = fault_eio_fsync = fault_enospc = fault_slow_fsync = 0;
    } else {
        fprintf(stderr, "zkchaos-lazyfs: unknown control command '%s'\n", cmd);
        return -EINVAL;
    }
    return (int) size;
}

/* ---- FUSE operations ---- */

static void *lz_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void) conn;
    cfg->use_ino = 1;
    cfg->entry_timeout = 0;
    cfg->attr_timeout = 0;
    cfg->negative_timeout = 0;
    cfg->direct_io = 1; /* no kernel page cache: every read and write reaches this process */
    cfg->kernel_cache = 0;
    cfg->hard_remove = 1; /* an unlinked open file is not renamed to .fuse_hidden* in the server's directory */
    return NULL;
}

static int lz_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    if (path == NULL) {
        /* an open file that was unlinked (hard_remove): only its handle names it */
        if (!fi || fi->fh == CONTROL_FH) {
            return -ENOENT;
        }
        struct lfile *f = (struct lfile *) (uintptr_t) fi->fh;
        if (fstat(f->fd, st) < 0) {
            return -errno;
        }
        if (f->size_dirty) {
            st->st_size = f->size;
        }
        return 0;
    }
    if (strcmp(path, CONTROL) == 0) {
        memset(st, 0, sizeof *st);
        st->st_mode = S_IFREG | 0600;
        st->st_nlink = 1;
        render_control();
        st->st_size = (off_t) strlen(control_out);
        return 0;
    }
    char p[PBUF];
    full(p, path);
    if (lstat(p, st) < 0) {
        return -errno;
    }
    struct lfile *f = S_ISREG(st->st_mode) ? find(st->st_dev, st->st_ino) : NULL;
    if (f && f->size_dirty) {
        st->st_size = f->size;
        st->st_blocks = (f->size + 511) / 512;
    }
    return 0;
}

static int lz_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t off, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
    (void) off;
    (void) fi;
    (void) flags;
    char p[PBUF];
    full(p, path);
    DIR *d = opendir(p);
    if (!d) {
        return -errno;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        memset(&st, 0, sizeof st);
        st.st_ino = e->d_ino;
        st.st_mode = (mode_t) e->d_type << 12;
        if (filler(buf, e->d_name, &st, 0, 0)) {
            break;
        }
    }
    closedir(d);
    return 0;
}

static int attach(const char *p, int flags, struct fuse_file_info *fi) {
    int fd = open(p, (flags & ~(O_ACCMODE | O_TRUNC | O_APPEND | O_CREAT | O_EXCL)) | O_RDWR);
    if (fd < 0 && errno == EACCES) {
        fd = open(p, flags & ~(O_TRUNC | O_CREAT | O_EXCL));
    }
    if (fd < 0) {
        return -errno;
    }
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    struct lfile *f = find(st.st_dev, st.st_ino);
    if (f) {
        close(fd);
    } else {
        f = calloc(1, sizeof *f);
        if (!f) {
            close(fd);
            return -ENOMEM;
        }
        f->ino = st.st_ino;
        f->dev = st.st_dev;
        f->fd = fd;
        f->next = files;
        files = f;
    }
    f->refs++;
    if (flags & O_TRUNC) {
        drop_pages(f);
        f->size = 0;
        f->size_dirty = 1;
    }
    fi->fh = (uint64_t) (uintptr_t) f;
    fi->direct_io = 1;
    return 0;
}

static int lz_open(const char *path, struct fuse_file_info *fi) {
    if (strcmp(path, CONTROL) == 0) {
        fi->fh = CONTROL_FH;
        fi->direct_io = 1;
        return 0;
    }
    char p[PBUF];
    full(p, path);
    return attach(p, fi->flags, fi);
}

static int lz_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    if (strcmp(path, CONTROL) == 0) {
        return -EEXIST;
    }
    char p[PBUF];
    full(p, path);
    int fd = open(p, O_CREAT | O_WRONLY | (fi->flags & O_EXCL), mode);
    if (fd < 0) {
        return -errno;
    }
    close(fd);
    return attach(p, fi->flags, fi);
}

static int lz_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) path;
    if (fi->fh == CONTROL_FH) {
        render_control();
        size_t len = strlen(control_out);
        if ((size_t) off >= len) {
            return 0;
        }
        size_t n = len - off < size ? len - off : size;
        memcpy(buf, control_out + off, n);
        return (int) n;
    }
    struct lfile *f = (struct lfile *) (uintptr_t) fi->fh;
    off_t limit = logical_size(f);
    if (off >= limit) {
        return 0;
    }
    if ((off_t) size > limit - off) {
        size = limit - off;
    }
    size_t done = 0;
    while (done < size) {
        off_t at = off + done;
        uint64_t index = at / PAGE;
        size_t in_page = at % PAGE;
        size_t n = PAGE - in_page < size - done ? PAGE - in_page : size - done;
        struct page *p = page_of(f, index);
        if (p) {
            memcpy(buf + done, p->data + in_page, n);
        } else {
            ssize_t got = pread(f->fd, buf + done, n, at);
            if (got < 0) {
                return -errno;
            }
            if ((size_t) got < n) {
                memset(buf + done + got, 0, n - got); /* past the backing end, inside the logical size */
            }
        }
        done += n;
    }
    return (int) size;
}

static int lz_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) path;
    if (fi->fh == CONTROL_FH) {
        return control(buf, size);
    }
    struct lfile *f = (struct lfile *) (uintptr_t) fi->fh;
    if (fi->flags & O_APPEND) {
        off = logical_size(f);
    }
    if (fault_eio_write) {
        st_failed_writes++;
        return -EIO;
    }
    if (fault_enospc && needs_space(f, off, size)) {
        st_full_writes++;
        return -ENOSPC;
    }
    off_t size_before = logical_size(f);
    size_t done = 0;
    while (done < size) {
        off_t at = off + done;
        uint64_t index = at / PAGE;
        size_t in_page = at % PAGE;
        size_t n = PAGE - in_page < size - done ? PAGE - in_page : size - done;
        struct page *p = dirty_page(f, index);
        if (!p) {
            return -ENOMEM;
        }
        memcpy(p->data + in_page, buf + done, n);
        if (in_page < p->lo) {
            p->lo = (uint16_t) in_page;
        }
        if (in_page + n > p->hi) {
            p->hi = (uint16_t) (in_page + n);
        }
        done += n;
    }
    off_t end = off + (off_t) size;
    f->size = end > size_before ? end : size_before;
    f->size_dirty = 1;
    st_writes++;
    return (int) size;
}

static int lz_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    struct lfile *f = NULL;
    int attached = 0;
    struct fuse_file_info tmp;
    if (fi && fi->fh != CONTROL_FH) {
        f = (struct lfile *) (uintptr_t) fi->fh;
    } else {
        if (strcmp(path, CONTROL) == 0) {
            return 0;
        }
        char p[PBUF];
        full(p, path);
        memset(&tmp, 0, sizeof tmp);
        int rc = attach(p, O_RDWR, &tmp);
        if (rc < 0) {
            return rc;
        }
        f = (struct lfile *) (uintptr_t) tmp.fh;
        attached = 1;
    }
    /* drop whole pages past the new end, zero the tail of the last one */
    for (int b = 0; b < BUCKETS; b++) {
        struct page **pp = &f->bucket[b];
        while (*pp) {
            struct page *p = *pp;
            off_t from = (off_t) p->index * PAGE;
            if (from >= size) {
                *pp = p->next;
                free(p);
                f->pages--;
            } else {
                if (from + PAGE > size) {
                    memset(p->data + (size - from), 0, PAGE - (size - from));
                }
                pp = &p->next;
            }
        }
    }
    if (size < logical_size(f) && size % PAGE != 0 && !page_of(f, size / PAGE)) {
        /* the backing file still holds bytes past the new end in that page: make them zeros in the cache */
        struct page *p = dirty_page(f, size / PAGE);
        if (p) {
            memset(p->data + size % PAGE, 0, PAGE - size % PAGE);
        }
    }
    f->size = size;
    f->size_dirty = 1;
    if (attached) {
        f->refs--;
        release_file(f);
    }
    return 0;
}

/* fsync and fdatasync alike: both write the file's pages and size. Called without the lock: a slow fsync waits its
 * extra delay holding none, so that the rest of the file system (and the control file, which clears the fault)
 * is served meanwhile. The handle keeps its file alive while the call lasts. */
static int lz_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    (void) path;
    (void) datasync;
    if (fi->fh == CONTROL_FH) {
        return 0;
    }
    pthread_mutex_lock(&lock);
    st_fsyncs++;
    long delay_ms = 0;
    if (fault_slow_fsync) {
        uint64_t span = (uint64_t) (slow_max_ms - slow_min_ms) + 1;
        delay_ms = slow_min_ms + (long) (next_random(&slow_state) % span);
        st_slowed_fsyncs++;
        st_slow_ms += (unsigned long long) delay_ms;
    }
    pthread_mutex_unlock(&lock);
    if (delay_ms > 0) {
        struct timespec ts = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
        while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
        }
    }
    pthread_mutex_lock(&lock);
    int rc;
    if (fault_eio_fsync) {
        st_failed_fsyncs++;
        rc = -EIO; /* nothing is written: the pages stay held, as they were */
    } else {
        rc = flush_file((struct lfile *) (uintptr_t) fi->fh);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int lz_flush(const char *path, struct fuse_file_info *fi) {
    (void) path;
    (void) fi;
    return 0; /* close() persists nothing, as on a real file system */
}

static int lz_release(const char *path, struct fuse_file_info *fi) {
    (void) path;
    if (fi->fh == CONTROL_FH) {
        return 0;
    }
    struct lfile *f = (struct lfile *) (uintptr_t) fi->fh;
    f->refs--;
    release_file(f);
    return 0;
}

static void forget_path(const char *p) {
    struct stat st;
    if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink <= 1) {
        struct lfile *f = find(st.st_dev, st.st_ino);
        if (f) {
            f->unlinked = 1;
            release_file(f);
        }
    }
}

static int lz_unlink(const char *path) {
    char p[PBUF];
    full(p, path);
    forget_path(p);
    return unlink(p) < 0 ? -errno : 0;
}

static int lz_rename(const char *from, const char *to, unsigned int flags) {
    if (flags) {
        return -EINVAL;
    }
    char a[PBUF], b[PBUF];
    full(a, from);
    full(b, to);
    forget_path(b);
    return rename(a, b) < 0 ? -errno : 0;
}

static int lz_mkdir(const char *path, mode_t mode) {
    char p[PBUF];
    full(p, path);
    return mkdir(p, mode) < 0 ? -errno : 0;
}

static int lz_rmdir(const char *path) {
    char p[PBUF];
    full(p, path);
    return rmdir(p) < 0 ? -errno : 0;
}

static int lz_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    (void) fi;
    char p[PBUF];
    full(p, path);
    return chmod(p, mode) < 0 ? -errno : 0;
}

static int lz_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    (void) fi;
    char p[PBUF];
    full(p, path);
    return lchown(p, uid, gid) < 0 ? -errno : 0;
}

static int lz_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
    (void) fi;
    char p[PBUF];
    full(p, path);
    return utimensat(AT_FDCWD, p, tv, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

static int lz_link(const char *from, const char *to) {
    char a[PBUF], b[PBUF];
    full(a, from);
    full(b, to);
    return link(a, b) < 0 ? -errno : 0;
}

static int lz_symlink(const char *target, const char *path) {
    char p[PBUF];
    full(p, path);
    return symlink(target, p) < 0 ? -errno : 0;
}

static int lz_readlink(const char *path, char *buf, size_t size) {
    char p[PBUF];
    full(p, path);
    ssize_t n = readlink(p, buf, size - 1);
    if (n < 0) {
        return -errno;
    }
    buf[n] = '\0';
    return 0;
}

static int lz_statfs(const char *path, struct statvfs *st) {
    (void) path;
    return statvfs(backing, st) < 0 ? -errno : 0;
}

static int lz_access(const char *path, int mask) {
    if (strcmp(path, CONTROL) == 0) {
        return 0;
    }
    char p[PBUF];
    full(p, path);
    return access(p, mask) < 0 ? -errno : 0;
}

/* Every operation but init and fsync (which locks for itself) runs under the lock. */
#define LOCKED(name, params, args) \
    static int locked_##name params { \
        pthread_mutex_lock(&lock); \
        int rc = lz_##name args; \
        pthread_mutex_unlock(&lock); \
        return rc; \
    }

LOCKED(getattr, (const char *a, struct stat *b, struct fuse_file_info *c), (a, b, c))
LOCKED(readdir, (const char *a, void *b, fuse_fill_dir_t c, off_t d, struct fuse_file_info *e,
                 enum fuse_readdir_flags f), (a, b, c, d, e, f))
LOCKED(open, (const char *a, struct fuse_file_info *b), (a, b))
LOCKED(create, (const char *a, mode_t b, struct fuse_file_info *c), (a, b, c))
LOCKED(read, (const char *a, char *b, size_t c, off_t d, struct fuse_file_info *e), (a, b, c, d, e))
LOCKED(write, (const char *a, const char *b, size_t c, off_t d, struct fuse_file_info *e), (a, b, c, d, e))
LOCKED(truncate, (const char *a, off_t b, struct fuse_file_info *c), (a, b, c))
LOCKED(flush, (const char *a, struct fuse_file_info *b), (a, b))
LOCKED(release, (const char *a, struct fuse_file_info *b), (a, b))
LOCKED(unlink, (const char *a), (a))
LOCKED(rename, (const char *a, const char *b, unsigned int c), (a, b, c))
LOCKED(mkdir, (const char *a, mode_t b), (a, b))
LOCKED(rmdir, (const char *a), (a))
LOCKED(chmod, (const char *a, mode_t b, struct fuse_file_info *c), (a, b, c))
LOCKED(chown, (const char *a, uid_t b, gid_t c, struct fuse_file_info *d), (a, b, c, d))
LOCKED(utimens, (const char *a, const struct timespec b[2], struct fuse_file_info *c), (a, b, c))
LOCKED(link, (const char *a, const char *b), (a, b))
LOCKED(symlink, (const char *a, const char *b), (a, b))
LOCKED(readlink, (const char *a, char *b, size_t c), (a, b, c))
LOCKED(statfs, (const char *a, struct statvfs *b), (a, b))
LOCKED(access, (const char *a, int b), (a, b))

static const struct fuse_operations ops = {
    .init = lz_init,
    .getattr = locked_getattr,
    .readdir = locked_readdir,
    .open = locked_open,
    .create = locked_create,
    .read = locked_read,
    .write = locked_write,
    .truncate = locked_truncate,
    .fsync = lz_fsync,
    .flush = locked_flush,
    .release = locked_release,
    .unlink = locked_unlink,
    .rename = locked_rename,
    .mkdir = locked_mkdir,
    .rmdir = locked_rmdir,
    .chmod = locked_chmod,
    .chown = locked_chown,
    .utimens = locked_utimens,
    .link = locked_link,
    .symlink = locked_symlink,
    .readlink = locked_readlink,
    .statfs = locked_statfs,
    .access = locked_access,
};

int main(int argc, char *argv[]) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s <backing-dir> <mount-point> [marker ...]\n", argv[0]);
        return 2;
    }
    if (!realpath(argv[1], backing)) {
        perror(argv[1]);
        return 2;
    }
    char *fuse_argv[] = {argv[0], "-f", "-o", "fsname=zkchaos-lazyfs,subtype=zkchaos-lazyfs,default_permissions",
                         argv[2], NULL};
    return fuse_main(5, fuse_argv, &ops, NULL);
}
