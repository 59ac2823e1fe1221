"""Reaches into another process of the same user, each way the box must refuse:
ptrace, process_vm_writev and a write to /proc/<pid>/mem. Prints one line per way.
Writes back the byte it read, so the target runs on unharmed either way."""
import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
pid = int(sys.argv[1])
PTRACE_ATTACH, PTRACE_DETACH = 16, 17


class IOVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


def stack_start():
    with open(f"/proc/{pid}/maps") as maps:
        for line in maps:
            if "[stack]" in line:
                return int(line.split("-")[0], 16)
    raise SystemExit("no stack")


def ptrace():
    if libc.ptrace(PTRACE_ATTACH, pid, None, None) != 0:
        return "refused"
    os.waitpid(pid, 0)
    libc.ptrace(PTRACE_DETACH, pid, None, None)
    return "attached"


def vm_write(address):
    buf = ctypes.create_string_buffer(1)
    local = IOVec(ctypes.cast(buf, ctypes.c_void_p), 1)
    remote = IOVec(address, 1)
    libc.process_vm_readv.restype = ctypes.c_ssize_t
    libc.process_vm_writev.restype = ctypes.c_ssize_t
    libc.process_vm_readv(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
    wrote = libc.process_vm_writev(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
    return "wrote" if wrote == 1 else "refused"


def mem_write(address):
    try:
        fd = os.open(f"/proc/{pid}/mem", os.O_RDWR)
    except OSError:
        return "refused"
    try:
        os.lseek(fd, address, 0)
        byte = os.read(fd, 1)
        os.lseek(fd, address, 0)
        return "wrote" if os.write(fd, byte) == 1 else "refused"
    except OSError:
        return "refused"
    finally:
        os.close(fd)


address = stack_start()
print(f"ptrace: {ptrace()}")
print(f"process_vm_writev: {vm_write(address)}")
print(f"proc-mem: {mem_write(address)}")
