import type { MailMessage } from './mailer.ts';
import { localizedPath } from '../../contract/seo.ts';

/** The languages the product speaks; e-mails use the one the user used last. */
export type MailLocale = 'en' | 'es' | 'pt';
export const MAIL_LOCALES: readonly MailLocale[] = ['en', 'es', 'pt'];

/** One e-mail in one language: a subject and paragraphs; `{name}` placeholders are filled from params. */
interface Text {
  subject: string;
  paragraphs: string[];
  /** The button/link text, when the e-mail has one main link (params.link). */
  action?: string;
  /**
   * A paragraph whose placeholder is given as '' is left out (a staff report about no ad, with no
   * contact); a list: only a paragraph holding one of these (a refund line, when nothing was paid).
   */
  dropEmpty?: boolean | readonly string[];
  /**
   * Params holding what an outsider wrote (a public report's message), each with the label it is
   * quoted under: their paragraph (the placeholder alone) becomes the label and the text quoted,
   * "> " lines in text, a <blockquote> in HTML, so nothing in it can pass for the mail's own lines
   * (a look-alike "Review it:" link, a fake footer). Staff-written text (a reason) is not quoted.
   */
  quoted?: Readonly<Record<string, string>>;
  /** Params an outsider wrote that sit inside a sentence (a report's contact): line breaks become spaces. */
  inline?: readonly string[];
}

const FOOTER: Record<MailLocale, string> = {
  en: 'XG Marketplace. You receive this e-mail about your account.',
  es: 'XG Marketplace. Recibes este correo sobre tu cuenta.',
  pt: 'XG Marketplace. Você recebe este e-mail sobre sua conta.',
};
const UNSUBSCRIBE: Record<MailLocale, string> = {
  en: 'Stop reminder e-mails: {unsubscribe}',
  es: 'Dejar de recibir recordatorios: {unsubscribe}',
  pt: 'Parar de receber lembretes: {unsubscribe}',
};

/**
 * Every e-mail the product sends to users, in English, Spanish and Portuguese. Add a template here
 * (all three languages: mail-templates.test.ts checks it) and send it with composeMail.
 */
export const TEMPLATES = {
  passwordReset: {
    en: {
      subject: 'Reset your XG Marketplace password',
      paragraphs: [
        'Someone (we hope you) asked to reset the password of your account.',
        'The link works once, within one hour. If you did not ask, ignore this e-mail: your password stays as it is.',
      ],
      action: 'Choose a new password',
    },
    es: {
      subject: 'Restablece tu contraseña de XG Marketplace',
      paragraphs: [
        'Alguien (esperamos que tú) pidió restablecer la contraseña de tu cuenta.',
        'El enlace funciona una vez, durante una hora. Si no lo pediste, ignora este correo: tu contraseña no cambia.',
      ],
      action: 'Elegir una nueva contraseña',
    },
    pt: {
      subject: 'Redefina sua senha do XG Marketplace',
      paragraphs: [
        'Alguém (esperamos que você) pediu para redefinir a senha da sua conta.',
        'O link funciona uma vez, por uma hora. Se não foi você, ignore este e-mail: sua senha continua a mesma.',
      ],
      action: 'Escolher uma nova senha',
    },
  },
  passwordChanged: {
    en: {
      subject: 'Your XG Marketplace password was changed',
      paragraphs: [
        'The password of your account was changed on {date}, and every session was signed out.',
        'If this was not you, reset your password now and contact us.',
      ],
      action: 'Reset my password',
    },
    es: {
      subject: 'Tu contraseña de XG Marketplace fue cambiada',
      paragraphs: [
        'La contraseña de tu cuenta se cambió el {date} y se cerraron todas las sesiones.',
        'Si no fuiste tú, restablece tu contraseña ahora y contáctanos.',
      ],
      action: 'Restablecer mi contraseña',
    },
    pt: {
      subject: 'Sua senha do XG Marketplace foi alterada',
      paragraphs: [
        'A senha da sua conta foi alterada em {date} e todas as sessões foram encerradas.',
        'Se não foi você, redefina sua senha agora e fale conosco.',
      ],
      action: 'Redefinir minha senha',
    },
  },
  adApproved: {
    en: {
      subject: 'Your ad is approved: {title}',
      paragraphs: ['Good news: “{title}” was approved and is now on XG Marketplace until {date}.'],
      action: 'See your ad',
    },
    es: {
      subject: 'Tu anuncio fue aprobado: {title}',
      paragraphs: ['Buenas noticias: «{title}» fue aprobado y ya está en XG Marketplace hasta el {date}.'],
      action: 'Ver tu anuncio',
    },
    pt: {
      subject: 'Seu anúncio foi aprovado: {title}',
      paragraphs: ['Boa notícia: “{title}” foi aprovado e já está no XG Marketplace até {date}.'],
      action: 'Ver seu anúncio',
    },
  },
  // The refund line names the wallet the price went back to (USD or promo, one of the two given,
  // the other ''); an ad that cost nothing has neither line.
  adRejected: {
    en: {
      subject: 'Your ad was not approved: {title}',
      paragraphs: [
        '“{title}” was not approved, for this reason: {reason}',
        'What you paid for it is back in your USD wallet: {usdRefund}.',
        'The promo credit you paid for it with is back in your promo wallet: {promoRefund}.',
        'Correct the ad and send it again from your cart.',
      ],
      action: 'Edit the ad',
      dropEmpty: ['usdRefund', 'promoRefund'],
    },
    es: {
      subject: 'Tu anuncio no fue aprobado: {title}',
      paragraphs: [
        '«{title}» no fue aprobado por este motivo: {reason}',
        'Lo que pagaste por él volvió a tu billetera en USD: {usdRefund}.',
        'El crédito promocional con el que lo pagaste volvió a tu billetera promocional: {promoRefund}.',
        'Corrige el anuncio y envíalo de nuevo desde tu carrito.',
      ],
      action: 'Editar el anuncio',
      dropEmpty: ['usdRefund', 'promoRefund'],
    },
    pt: {
      subject: 'Seu anúncio não foi aprovado: {title}',
      paragraphs: [
        '“{title}” não foi aprovado por este motivo: {reason}',
        'O que você pagou por ele voltou para sua carteira em USD: {usdRefund}.',
        'O crédito promocional com que você o pagou voltou para sua carteira promocional: {promoRefund}.',
        'Corrija o anúncio e envie de novo pelo carrinho.',
      ],
      action: 'Editar o anúncio',
      dropEmpty: ['usdRefund', 'promoRefund'],
    },
  },
  // Staff took a live (or expired) ad down: it shows nowhere and cannot be renewed until they put it back.
  adDisabled: {
    en: {
      subject: 'Your ad was taken off XG Marketplace: {title}',
      paragraphs: [
        'Our staff took “{title}” off XG Marketplace. It does not show, and it cannot be edited or renewed, until staff put it back.',
        'To ask why, or if you think this is a mistake, write to us: {contact}',
      ],
      action: 'See your ads',
    },
    es: {
      subject: 'Tu anuncio fue retirado de XG Marketplace: {title}',
      paragraphs: [
        'Nuestro equipo retiró «{title}» de XG Marketplace. No se muestra y no se puede editar ni renovar hasta que el equipo lo vuelva a publicar.',
        'Para preguntar por qué, o si crees que es un error, escríbenos: {contact}',
      ],
      action: 'Ver tus anuncios',
    },
    pt: {
      subject: 'Seu anúncio foi retirado do XG Marketplace: {title}',
      paragraphs: [
        'Nossa equipe retirou “{title}” do XG Marketplace. Ele não aparece e não pode ser editado nem renovado até que a equipe o coloque de volta.',
        'Para perguntar por quê, ou se você acha que é um engano, escreva para nós: {contact}',
      ],
      action: 'Ver seus anúncios',
    },
  },
  // Staff put a taken-down ad back. It shows again only if nothing else hides it (its term over,
  // set offline, the account or the place not open): My ads says which.
  adEnabled: {
    en: {
      subject: 'Your ad is back on XG Marketplace: {title}',
      paragraphs: [
        'Our staff put “{title}” back on XG Marketplace. It shows again while its paid term runs, unless something else keeps it hidden: My ads says what (a term that has ended can be renewed there).',
        'Questions? Write to us: {contact}',
      ],
      action: 'See your ads',
    },
    es: {
      subject: 'Tu anuncio volvió a XG Marketplace: {title}',
      paragraphs: [
        'Nuestro equipo volvió a publicar «{title}» en XG Marketplace. Se muestra de nuevo mientras dure su plazo pagado, salvo que otra cosa lo oculte: Mis anuncios dice qué (un plazo que terminó se puede renovar allí).',
        '¿Preguntas? Escríbenos: {contact}',
      ],
      action: 'Ver tus anuncios',
    },
    pt: {
      subject: 'Seu anúncio voltou ao XG Marketplace: {title}',
      paragraphs: [
        'Nossa equipe colocou “{title}” de volta no XG Marketplace. Ele aparece de novo enquanto durar o prazo pago, a menos que outra coisa o oculte: Meus anúncios diz o quê (um prazo que terminou pode ser renovado lá).',
        'Dúvidas? Escreva para nós: {contact}',
      ],
      action: 'Ver seus anúncios',
    },
  },
  revisionApproved: {
    en: {
      subject: 'Your changes are live: {title}',
      paragraphs: ['The changes you made to “{title}” were approved and are now what visitors see.'],
      action: 'See your ad',
    },
    es: {
      subject: 'Tus cambios ya están publicados: {title}',
      paragraphs: ['Los cambios que hiciste en «{title}» fueron aprobados y ya son lo que ven los visitantes.'],
      action: 'Ver tu anuncio',
    },
    pt: {
      subject: 'Suas alterações estão no ar: {title}',
      paragraphs: ['As alterações que você fez em “{title}” foram aprovadas e já são o que os visitantes veem.'],
      action: 'Ver seu anúncio',
    },
  },
  // An edit approved while its ad shows nowhere (offline, staff took it down, the owner's account
  // not approved, its term over, its place disabled): it is the ad's version now, not what visitors see.
  revisionApprovedHidden: {
    en: {
      subject: 'Your changes were approved: {title}',
      paragraphs: [
        'The changes you made to “{title}” were approved. The ad is not showing on XG Marketplace at the moment (My ads says why); when it shows, it shows these changes.',
      ],
      action: 'See your ads',
    },
    es: {
      subject: 'Tus cambios fueron aprobados: {title}',
      paragraphs: [
        'Los cambios que hiciste en «{title}» fueron aprobados. El anuncio no se muestra en XG Marketplace por ahora (Mis anuncios explica por qué); cuando se muestre, lo hará con estos cambios.',
      ],
      action: 'Ver tus anuncios',
    },
    pt: {
      subject: 'Suas alterações foram aprovadas: {title}',
      paragraphs: [
        'As alterações que você fez em “{title}” foram aprovadas. O anúncio não está aparecendo no XG Marketplace no momento (Meus anúncios explica por quê); quando aparecer, será com estas alterações.',
      ],
      action: 'Ver seus anúncios',
    },
  },
  revisionRejected: {
    en: {
      subject: 'Your changes were not approved: {title}',
      paragraphs: [
        'The changes you made to “{title}” were not approved, for this reason: {reason}',
        'Your ad keeps the version it had before. You can edit it again.',
      ],
      action: 'Edit the ad',
    },
    es: {
      subject: 'Tus cambios no fueron aprobados: {title}',
      paragraphs: [
        'Los cambios que hiciste en «{title}» no fueron aprobados por este motivo: {reason}',
        'Tu anuncio conserva la versión que tenía. Puedes editarlo de nuevo.',
      ],
      action: 'Editar el anuncio',
    },
    pt: {
      subject: 'Suas alterações não foram aprovadas: {title}',
      paragraphs: [
        'As alterações que você fez em “{title}” não foram aprovadas por este motivo: {reason}',
        'Seu anúncio mantém a versão que tinha antes. Você pode editá-lo de novo.',
      ],
      action: 'Editar o anúncio',
    },
  },
  welcomeCode: {
    en: {
      subject: 'Your XG Marketplace welcome promo code',
      paragraphs: [
        'Welcome to XG Marketplace!',
        'Your personal promo code: {code}',
        'It adds {amount} to your promo wallet, once, until {date}. Promo money pays for ads and bumps; it cannot be withdrawn.',
      ],
      action: 'Enter it on your wallet page',
    },
    es: {
      subject: 'Tu código promocional de bienvenida de XG Marketplace',
      paragraphs: [
        '¡Te damos la bienvenida a XG Marketplace!',
        'Tu código promocional personal: {code}',
        'Añade {amount} a tu billetera promocional, una sola vez, hasta el {date}. El crédito promocional paga anuncios y destacados; no se puede retirar.',
      ],
      action: 'Introdúcelo en la página de tu billetera',
    },
    pt: {
      subject: 'Seu código promocional de boas-vindas do XG Marketplace',
      paragraphs: [
        'Boas-vindas ao XG Marketplace!',
        'Seu código promocional pessoal: {code}',
        'Ele adiciona {amount} à sua carteira promocional, uma única vez, até {date}. O crédito promocional paga anúncios e destaques; não pode ser sacado.',
      ],
      action: 'Use-o na página da sua carteira',
    },
  },
  emailInUse: {
    en: {
      subject: 'Someone tried to use your e-mail address',
      paragraphs: [
        'Hello {nickname},',
        'Someone tried to use this address for another account on XG Marketplace. It already belongs to your account, so nothing was changed.',
        'If it was you, sign in with it instead. If not, you can ignore this message.',
      ],
      action: 'Sign in',
    },
    es: {
      subject: 'Alguien intentó usar tu dirección de correo',
      paragraphs: [
        'Hola, {nickname}:',
        'Alguien intentó usar esta dirección para otra cuenta de XG Marketplace. Ya pertenece a tu cuenta, así que no se cambió nada.',
        'Si fuiste tú, inicia sesión con ella. Si no, puedes ignorar este mensaje.',
      ],
      action: 'Iniciar sesión',
    },
    pt: {
      subject: 'Alguém tentou usar seu endereço de e-mail',
      paragraphs: [
        'Olá, {nickname},',
        'Alguém tentou usar este endereço para outra conta no XG Marketplace. Ele já pertence à sua conta, então nada foi alterado.',
        'Se foi você, entre com ele. Se não, pode ignorar esta mensagem.',
      ],
      action: 'Entrar',
    },
  },
  // To an address nobody has proven yet (anyone's): nothing in it that the requester chose, their nickname included.
  emailChangeConfirm: {
    en: {
      subject: 'Confirm your new e-mail address',
      paragraphs: [
        'Hello,',
        'Someone (hopefully you) asked to use this address for an XG Marketplace account. Open the link within {days} days to confirm.',
        'If it was not you, ignore this message: nothing changes.',
      ],
      action: 'Confirm this address',
    },
    es: {
      subject: 'Confirma tu nueva dirección de correo',
      paragraphs: [
        'Hola:',
        'Alguien (esperamos que tú) pidió usar esta dirección para una cuenta de XG Marketplace. Abre el enlace en un plazo de {days} días para confirmarlo.',
        'Si no fuiste tú, ignora este mensaje: no cambia nada.',
      ],
      action: 'Confirmar esta dirección',
    },
    pt: {
      subject: 'Confirme seu novo endereço de e-mail',
      paragraphs: [
        'Olá,',
        'Alguém (esperamos que você) pediu para usar este endereço em uma conta do XG Marketplace. Abra o link em até {days} dias para confirmar.',
        'Se não foi você, ignore esta mensagem: nada muda.',
      ],
      action: 'Confirmar este endereço',
    },
  },
  emailChanged: {
    en: {
      subject: 'Your e-mail address was changed',
      paragraphs: ['Hello {nickname},', 'The e-mail address of your XG Marketplace account is now {email}.', 'If you did not do this, contact us at once.'],
      action: 'Contact us',
    },
    es: {
      subject: 'Se cambió tu dirección de correo',
      paragraphs: [
        'Hola, {nickname}:',
        'La dirección de correo de tu cuenta de XG Marketplace ahora es {email}.',
        'Si no fuiste tú, contáctanos de inmediato.',
      ],
      action: 'Contáctanos',
    },
    pt: {
      subject: 'Seu endereço de e-mail foi alterado',
      paragraphs: ['Olá, {nickname},', 'O endereço de e-mail da sua conta no XG Marketplace agora é {email}.', 'Se não foi você, fale conosco imediatamente.'],
      action: 'Fale conosco',
    },
  },
  // A master approved the account: ads show from now on, and those staff approved meanwhile start (those set offline told apart).
  accountApproved: {
    en: {
      subject: 'Your XG Marketplace account is approved',
      paragraphs: [
        'Hello {nickname},',
        'Your account on XG Marketplace is approved: your ads show as soon as staff approve them.',
        'Showing from today, for their whole paid term: {titles}.',
        'Their paid term starts today, but they do not show because you set them offline (set them online in My ads to show them): {offlineTitles}.',
      ],
      action: 'See your ads',
      dropEmpty: true,
    },
    es: {
      subject: 'Tu cuenta de XG Marketplace fue aprobada',
      paragraphs: [
        'Hola, {nickname}:',
        'Tu cuenta en XG Marketplace fue aprobada: tus anuncios se muestran en cuanto el equipo los aprueba.',
        'Se muestran desde hoy, durante todo su plazo pagado: {titles}.',
        'Su plazo pagado empieza hoy, pero no se muestran porque los pusiste fuera de línea (ponlos en línea en Mis anuncios para mostrarlos): {offlineTitles}.',
      ],
      action: 'Ver tus anuncios',
      dropEmpty: true,
    },
    pt: {
      subject: 'Sua conta no XG Marketplace foi aprovada',
      paragraphs: [
        'Olá, {nickname},',
        'Sua conta no XG Marketplace foi aprovada: seus anúncios aparecem assim que a equipe os aprova.',
        'Aparecem a partir de hoje, durante todo o prazo pago: {titles}.',
        'O prazo pago começa hoje, mas não aparecem porque você os deixou offline (coloque-os online em Meus anúncios para mostrá-los): {offlineTitles}.',
      ],
      action: 'Ver seus anúncios',
      dropEmpty: true,
    },
  },
  adApprovedOffline: {
    en: {
      subject: 'Your ad is approved: {title}',
      paragraphs: [
        '“{title}” was approved and its paid term runs until {date}, but it is not showing now: you set it offline. Set it online in My ads to show it.',
      ],
      action: 'See your ads',
    },
    es: {
      subject: 'Tu anuncio fue aprobado: {title}',
      paragraphs: [
        '«{title}» fue aprobado y su plazo pagado dura hasta el {date}, pero ahora no se muestra: lo pusiste fuera de línea. Ponlo en línea en Mis anuncios para mostrarlo.',
      ],
      action: 'Ver tus anuncios',
    },
    pt: {
      subject: 'Seu anúncio foi aprovado: {title}',
      paragraphs: [
        '“{title}” foi aprovado e o prazo pago vai até {date}, mas ele não aparece agora: você o deixou offline. Deixe-o online em Meus anúncios para mostrá-lo.',
      ],
      action: 'Ver seus anúncios',
    },
  },
  adApprovedAccountPending: {
    en: {
      subject: 'Your ad is approved: {title}',
      paragraphs: ['“{title}” was approved. It shows on XG Marketplace once your account is approved, and its paid term starts then.'],
      action: 'See your ads',
    },
    es: {
      subject: 'Tu anuncio fue aprobado: {title}',
      paragraphs: ['«{title}» fue aprobado. Se mostrará en XG Marketplace cuando tu cuenta sea aprobada, y su plazo pagado empezará entonces.'],
      action: 'Ver tus anuncios',
    },
    pt: {
      subject: 'Seu anúncio foi aprovado: {title}',
      paragraphs: ['“{title}” foi aprovado. Ele aparece no XG Marketplace quando sua conta for aprovada, e o prazo pago começa a contar a partir daí.'],
      action: 'Ver seus anúncios',
    },
  },
  adExpiring: {
    en: {
      subject: 'Your ad expires on {date}: {title}',
      paragraphs: ['“{title}” will stop showing on {date}. Renew it to keep it online without a new review.'],
      action: 'Renew the ad',
    },
    es: {
      subject: 'Tu anuncio vence el {date}: {title}',
      paragraphs: ['«{title}» dejará de mostrarse el {date}. Renuévalo para mantenerlo publicado sin una nueva revisión.'],
      action: 'Renovar el anuncio',
    },
    pt: {
      subject: 'Seu anúncio vence em {date}: {title}',
      paragraphs: ['“{title}” deixará de aparecer em {date}. Renove-o para mantê-lo no ar sem uma nova revisão.'],
      action: 'Renovar o anúncio',
    },
  },
  adExpired: {
    en: {
      subject: 'Your ad has expired: {title}',
      paragraphs: ['“{title}” is no longer shown. Renew it and it comes back at once, without a new review.'],
      action: 'Renew the ad',
    },
    es: {
      subject: 'Tu anuncio venció: {title}',
      paragraphs: ['«{title}» ya no se muestra. Renuévalo y vuelve de inmediato, sin una nueva revisión.'],
      action: 'Renovar el anuncio',
    },
    pt: {
      subject: 'Seu anúncio venceu: {title}',
      paragraphs: ['“{title}” não aparece mais. Renove-o e ele volta na hora, sem nova revisão.'],
      action: 'Renovar o anúncio',
    },
  },
  topUpCredited: {
    en: {
      subject: 'Your wallet was topped up: {amount}',
      paragraphs: [
        'Thank you: your Bitcoin payment was confirmed.',
        '{amount} was added to your USD wallet. Balance now: {balance}',
        'Invoice: {invoice}. Date: {date}',
      ],
      action: 'Your wallet and its history',
    },
    es: {
      subject: 'Tu billetera fue recargada: {amount}',
      paragraphs: [
        'Gracias: tu pago con Bitcoin fue confirmado.',
        'Se añadieron {amount} a tu billetera en USD. Saldo actual: {balance}',
        'Factura: {invoice}. Fecha: {date}',
      ],
      action: 'Tu billetera y su historial',
    },
    pt: {
      subject: 'Sua carteira foi recarregada: {amount}',
      paragraphs: [
        'Obrigado: seu pagamento em Bitcoin foi confirmado.',
        '{amount} foram adicionados à sua carteira em USD. Saldo agora: {balance}',
        'Fatura: {invoice}. Data: {date}',
      ],
      action: 'Sua carteira e o histórico',
    },
  },
  // To staff.
  staffReport: {
    en: {
      subject: '[XG]{urgent} {kind} {id}',
      paragraphs: ['{kind} received {when}.', 'Ad: {adUrl}', 'Contact: {contact}', '{message}'],
      action: 'Review it',
      dropEmpty: true,
      quoted: { message: 'Message from the sender:' },
      inline: ['contact'],
    },
    es: {
      subject: '[XG]{urgent} Nuevo aviso: {kind} {id}',
      paragraphs: ['Llegó el {when}: {kind}.', 'Anuncio: {adUrl}', 'Contacto: {contact}', '{message}'],
      action: 'Revisarlo',
      dropEmpty: true,
      quoted: { message: 'Mensaje del remitente:' },
      inline: ['contact'],
    },
    pt: {
      subject: '[XG]{urgent} Novo aviso: {kind} {id}',
      paragraphs: ['Chegou em {when}: {kind}.', 'Anúncio: {adUrl}', 'Contato: {contact}', '{message}'],
      action: 'Analisar',
      dropEmpty: true,
      quoted: { message: 'Mensagem do remetente:' },
      inline: ['contact'],
    },
  },
  healthFailing: {
    en: {
      subject: '[XG] Health check failing: {names}',
      paragraphs: [
        'Failing since {since}:',
        '{checks}',
        'You get this e-mail once, when a check turns failing; the next one comes after it has recovered and failed again.',
      ],
      action: 'See the checks',
    },
    es: {
      subject: '[XG] Comprobación de estado con fallos: {names}',
      paragraphs: [
        'Con fallos desde el {since}:',
        '{checks}',
        'Recibes este correo una vez, cuando una comprobación empieza a fallar; el siguiente llega cuando se haya recuperado y vuelva a fallar.',
      ],
      action: 'Ver las comprobaciones',
    },
    pt: {
      subject: '[XG] Verificação de saúde com falha: {names}',
      paragraphs: [
        'Com falha desde {since}:',
        '{checks}',
        'Você recebe este e-mail uma vez, quando uma verificação começa a falhar; o próximo chega depois que ela se recuperar e falhar de novo.',
      ],
      action: 'Ver as verificações',
    },
  },
} as const satisfies Record<string, Record<MailLocale, Text>>;

/** The kinds of report as staff e-mails name them. */
export const REPORT_KIND_WORDS: Record<MailLocale, Record<'ad' | 'trafficking' | 'contact' | 'law_enforcement', string>> = {
  en: { ad: 'Ad report', trafficking: 'Trafficking report', contact: 'Contact message', law_enforcement: 'Law-enforcement request' },
  es: { ad: 'Denuncia de anuncio', trafficking: 'Denuncia de trata', contact: 'Mensaje de contacto', law_enforcement: 'Solicitud de las autoridades' },
  pt: { ad: 'Denúncia de anúncio', trafficking: 'Denúncia de tráfico', contact: 'Mensagem de contato', law_enforcement: 'Solicitação das autoridades' },
};
export const URGENT_WORD: Record<MailLocale, string> = { en: ' URGENT', es: ' URGENTE', pt: ' URGENTE' };

export type TemplateName = keyof typeof TEMPLATES;

const UTC = { timeZone: 'UTC' } as const;
const MOMENTS: Record<MailLocale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-US', { ...UTC, dateStyle: 'medium', timeStyle: 'short' }),
  es: new Intl.DateTimeFormat('es', { ...UTC, dateStyle: 'medium', timeStyle: 'short' }),
  pt: new Intl.DateTimeFormat('pt-BR', { ...UTC, dateStyle: 'medium', timeStyle: 'short' }),
};

/**
 * A moment in an e-mail, written the reader's way ("Jan 18, 2026, 12:00 PM", "18 ene 2026, 12:00",
 * "18 de jan. de 2026, 12:00"), in UTC and said so (readers are in several US time zones).
 */
export const utcMoment = (iso: string, locale: MailLocale) => `${MOMENTS[locale].format(new Date(iso))} UTC`;

/** The address of one of the site's pages in a language, for a link in an e-mail: /x, /es/x, /pt/x. */
export function pageLink(publicUrl: string, locale: MailLocale, path: string): string {
  return publicUrl + localizedPath(path, locale);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Escaped, each line break kept as one in HTML. */
const lines = (s: string) => escapeHtml(s).replace(/\r\n?|\n/g, '<br>');
/** A paragraph of an e-mail: the template's own text, or an outsider's text quoted under a label. */
type Paragraph = string | { label: string; quote: string };
const fill = (s: string, params: Record<string, string>) => s.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? params[k] : m));

/**
 * An e-mail from a template: plain text and HTML (params escaped), the main link as a button, and
 * with `unsubscribeUrl` a footer link and List-Unsubscribe headers (one-click, RFC 8058).
 */
export function composeMail(
  name: TemplateName,
  locale: MailLocale,
  to: string,
  params: Record<string, string> & { link?: string },
  opts: { unsubscribeUrl?: string; oneClickUrl?: string } = {},
): MailMessage {
  const t: Text = TEMPLATES[name][locale] ?? TEMPLATES[name].en;
  const all: Record<string, string> = { ...params, unsubscribe: opts.unsubscribeUrl ?? '' };
  for (const k of t.inline ?? []) if (k in all) all[k] = all[k].replace(/\s*[\r\n]+\s*/g, ' ');
  const droppable = (k: string) => t.dropEmpty === true || (Array.isArray(t.dropEmpty) && t.dropEmpty.includes(k));
  const empty = (p: string) => [...p.matchAll(/\{(\w+)\}/g)].some(([, k]) => all[k] === '' && droppable(k));
  const quotedParam = (p: string) => /^\{(\w+)\}$/.exec(p)?.[1];
  const paragraphs: Paragraph[] = t.paragraphs
    .filter((p) => !(t.dropEmpty && empty(p)))
    .map((p) => {
      const k = quotedParam(p);
      return k && t.quoted?.[k] !== undefined ? { label: t.quoted[k], quote: all[k] ?? '' } : fill(p, all);
    });
  const text = [
    ...paragraphs.flatMap((p) => (typeof p === 'string' ? [p, ''] : [p.label, ...p.quote.split(/\r\n?|\n/).map((l) => (l ? `> ${l}` : '>')), ''])),
    ...(params.link && t.action ? [`${t.action}: ${params.link}`, ''] : []),
    '--',
    FOOTER[locale],
    ...(opts.unsubscribeUrl ? [fill(UNSUBSCRIBE[locale], all)] : []),
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;line-height:1.5;color:#222">`,
    // A line break within a paragraph (a list of checks, a reporter's own lines) stays one in HTML.
    ...paragraphs.map((p) =>
      typeof p === 'string'
        ? `<p>${lines(p)}</p>`
        : `<p>${escapeHtml(p.label)}</p>\n<blockquote style="margin:0 0 1em;padding-left:12px;border-left:3px solid #ccc;color:#444">${lines(p.quote)}</blockquote>`,
    ),
    ...(params.link && t.action
      ? [
          `<p><a href="${escapeHtml(params.link)}" style="display:inline-block;padding:10px 16px;background:#6d3cb4;color:#fff;border-radius:4px;text-decoration:none">${escapeHtml(t.action)}</a></p>`,
        ]
      : []),
    `<hr><p style="color:#777;font-size:12px">${escapeHtml(FOOTER[locale])}`,
    ...(opts.unsubscribeUrl
      ? [`<br><a href="${escapeHtml(opts.unsubscribeUrl)}">${escapeHtml(fill(UNSUBSCRIBE[locale], { unsubscribe: '' }).replace(/:\s*$/, ''))}</a>`]
      : []),
    '</p></body></html>',
  ].join('\n');
  return {
    to,
    subject: fill(t.subject, all),
    text,
    html,
    ...(opts.unsubscribeUrl
      ? { headers: { 'List-Unsubscribe': `<${opts.oneClickUrl ?? opts.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
      : {}),
  };
}
