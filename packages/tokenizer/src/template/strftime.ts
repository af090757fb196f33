// Python's time.strftime in the C locale (what transformers' strftime_now global returns, as it
// runs datetime.now().strftime(format)), for the directives chat templates use. Local time, as Python's.

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function dayOfYear(d: Date): number {
  const start = new Date(d.getFullYear(), 0, 1);
  return Math.round((new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime() - start.getTime()) / 86_400_000) + 1;
}

/** `%-d` (glibc's no-padding flag) is honoured too; an unknown directive is left as written, as glibc does. */
export function strftime(date: Date, format: string): string {
  return format.replace(/%(-?)([aAbBdeHIjmMpSyYZ%])/g, (_, noPad: string, c: string) => {
    const num = (n: number, width = 2) => (noPad ? String(n) : pad(n, width));
    switch (c) {
      case 'a':
        return DAYS[date.getDay()]!.slice(0, 3);
      case 'A':
        return DAYS[date.getDay()]!;
      case 'b':
        return MONTHS[date.getMonth()]!.slice(0, 3);
      case 'B':
        return MONTHS[date.getMonth()]!;
      case 'd':
        return num(date.getDate());
      case 'e':
        return String(date.getDate()).padStart(2, ' ');
      case 'H':
        return num(date.getHours());
      case 'I':
        return num(date.getHours() % 12 || 12);
      case 'j':
        return num(dayOfYear(date), 3);
      case 'm':
        return num(date.getMonth() + 1);
      case 'M':
        return num(date.getMinutes());
      case 'p':
        return date.getHours() < 12 ? 'AM' : 'PM';
      case 'S':
        return num(date.getSeconds());
      case 'y':
        return num(date.getFullYear() % 100);
      case 'Y':
        return String(date.getFullYear());
      case 'Z':
        return '';
      default:
        return '%';
    }
  });
}
