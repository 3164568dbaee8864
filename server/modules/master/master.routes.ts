import { Type } from 'typebox';
import { Paging, defineRoutes } from '../../core/http.ts';
import { requireUser } from '../../core/auth.ts';
import { MasterService } from './master.service.ts';

const Message = Type.Object({ message: Type.String() });
const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  nickname: Type.String(),
  status: Type.String(),
  roles: Type.Array(Type.String()),
  createdAt: Type.String(),
});
const UserQuery = { ...Paging, query: Type.Optional(Type.String({ maxLength: 254 })) };
const Role = Type.Union([Type.Literal('PROVIDER_USER'), Type.Literal('ADMIN_USER'), Type.Literal('MASTER_USER')]);
const Status = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('suspended')]);
const UserId = Type.String({ minLength: 1, maxLength: 64 });

export default defineRoutes((app, deps) => {
  const master = new MasterService(deps);

  app.get('/api/master/get-pending-users', {
    schema: {
      querystring: Type.Object(UserQuery),
      response: { 200: Type.Object({ pendingUsers: Type.Array(UserSchema), total: Type.Integer() }), '4xx': Message },
    },
  }, async (request) => master.pendingUsers(request.query));

  app.get('/api/master/get-approved-users', {
    schema: {
      querystring: Type.Object({ ...UserQuery, status: Type.Optional(Type.Union([Type.Literal('approved'), Type.Literal('suspended')])) }),
      response: { 200: Type.Object({ approvedUsers: Type.Array(UserSchema), total: Type.Integer() }), '4xx': Message },
    },
  }, async (request) => master.approvedUsers(request.query));

  app.post('/api/master/update-user-roles', {
    schema: {
      body: Type.Object({ userId: UserId, roles: Type.Array(Role, { maxItems: 3, uniqueItems: true }) }),
      response: { 200: Type.Object({ user: UserSchema }), '4xx': Message },
    },
  }, async (request) => ({ user: await master.updateRoles(requireUser(request), request.body.userId, request.body.roles) }));

  app.post('/api/master/update-user-status', {
    schema: {
      body: Type.Object({ userId: UserId, status: Status }),
      response: { 200: Type.Object({ user: UserSchema }), '4xx': Message },
    },
  }, async (request) => ({ user: await master.updateStatus(requireUser(request), request.body.userId, request.body.status) }));
});
