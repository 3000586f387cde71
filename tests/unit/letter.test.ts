// The greeting, signature and HTML part of every e-mail to a family (server/modules/notifications/letter.ts).
import { describe, expect, it } from 'vitest';
import { greeting, letterHtml, signature, vocativeSurname } from '../../server/modules/notifications/letter';

describe('the letter to a family', () => {
  it.each([
    ['Παπαδόπουλος', 'Παπαδόπουλε'],
    ['Καλός', 'Καλέ'],
    ['Παππάς', 'Παππά'],
    ['Νικολαΐδης', 'Νικολαΐδη'],
    ['Μπακογιάννης', 'Μπακογιάννη'],
    ['Καραμανλής', 'Καραμανλή'],
    ['Γεωργίου', 'Γεωργίου'],
    ['ΠΑΠΑΔΟΠΟΥΛΟΣ', 'ΠΑΠΑΔΟΠΟΥΛΕ'],
    ['Παπαδόπουλος-Γεωργίου', 'Παπαδόπουλε-Γεωργίου'],
    ['Smith', 'Smith'],
  ])('a man named %s is addressed as %s', (surname, vocative) => {
    expect(vocativeSurname(surname)).toBe(vocative);
  });

  it('greets by the relation: κυρία for a mother (surname unchanged), κύριε for a father (vocative), else a plain greeting', () => {
    expect(greeting({ last_name: 'Αντωνίου', relation: 'MOTHER' }, 'el')).toBe('Αγαπητή κυρία Αντωνίου,');
    expect(greeting({ last_name: ' Παππάς ', relation: 'FATHER' }, 'el')).toBe('Αγαπητέ κύριε Παππά,');
    expect(greeting({ last_name: 'Παππάς', relation: 'GUARDIAN' }, 'el')).toBe('Καλησπέρα σας,');
    expect(greeting({ last_name: 'Παππάς', relation: 'OTHER' }, 'el')).toBe('Καλησπέρα σας,');
    expect(greeting({ last_name: 'Antoniou', relation: 'MOTHER' }, 'en')).toBe('Dear Ms Antoniou,');
    expect(greeting({ last_name: 'Pappas', relation: 'FATHER' }, 'en')).toBe('Dear Mr Pappas,');
    expect(greeting({ last_name: 'Pappas', relation: null }, 'en')).toBe('Hello,');
    expect(signature('Φροντιστήριο Άλφα', 'el')).toEqual(['Με εκτίμηση,', 'Φροντιστήριο Άλφα']);
  });

  it('the HTML part says what the text says: paragraphs, dashes as a list, links as links, everything escaped', () => {
    const html = letterHtml(
      'Αγαπητή κυρία <Α>,\n\nΤα "παιδιά" & εσείς:\n– Οκτωβρίου 2026: 10,00 €\n– Νοεμβρίου 2026: 10,00 €\n\nhttps://x.example/a?b=1&c=2\n',
      'Θέμα <i>',
    );
    expect(html).toContain('<html lang="el">');
    expect(html).toContain('<title>Θέμα &lt;i&gt;</title>');
    expect(html).toContain('<p>Αγαπητή κυρία &lt;Α&gt;,</p>');
    expect(html).toContain('<p>Τα &quot;παιδιά&quot; &amp; εσείς:</p>\n<ul>\n<li>Οκτωβρίου 2026: 10,00 €</li>\n<li>Νοεμβρίου 2026: 10,00 €</li>\n</ul>');
    expect(html).toContain('<a href="https://x.example/a?b=1&amp;c=2">https://x.example/a?b=1&amp;c=2</a>');
    expect(letterHtml('Hello,\n\nSee you.')).toContain('<html lang="en">');
  });
});
